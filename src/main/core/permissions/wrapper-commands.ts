/**
 * Programs that run the command in their arguments: `exec rm x`, `setsid rm x`, `flock F rm x`,
 * `busybox rm x`. Deny and ask rules look through every one of them, so a denied program cannot
 * hide behind a launcher. Each entry says which options take a value and how many operands come
 * before the command (flock's lock file, timeout's duration, taskset's mask, chrt's priority).
 */

interface WrapperGrammar {
  valueOptions: ReadonlySet<string>
  /** Operands between the options and the command. */
  operands: number
  /** Options whose value is a shell script (`flock F -c 'rm x'`, `env -S 'rm x'`). */
  scriptOptions?: ReadonlySet<string>
  /** `NAME=value` words before the command are assignments (env). */
  assignments?: boolean
}

const grammar = (
  valueOptions: string,
  operands = 0,
  extra: Partial<Pick<WrapperGrammar, 'assignments'>> & { scriptOptions?: string } = {},
): WrapperGrammar => ({
  valueOptions: new Set(valueOptions.split(' ').filter(Boolean)),
  operands,
  scriptOptions: new Set((extra.scriptOptions ?? '').split(' ').filter(Boolean)),
  assignments: extra.assignments ?? false,
})

export const RESTRICT_WRAPPERS: Readonly<Record<string, WrapperGrammar>> = {
  exec: grammar('-a'),
  setsid: grammar(''),
  flock: grammar('-w --timeout -E --conflict-exit-code', 1, { scriptOptions: '-c --command' }),
  chrt: grammar('-T --sched-runtime -P --sched-period -D --sched-deadline', 1),
  taskset: grammar('', 1),
  busybox: grammar(''),
  doas: grammar('-u -C'),
  unbuffer: grammar(''),
  stdbuf: grammar('-i -o -e --input --output --error'),
  nice: grammar('-n --adjustment'),
  ionice: grammar('-c --class -n --classdata -p --pid -P --pgid -u --uid'),
  timeout: grammar('-s --signal -k --kill-after', 1),
  env: grammar('-u --unset -C --chdir', 0, { assignments: true, scriptOptions: '-S --split-string' }),
  sudo: grammar(
    '-u --user -g --group -C --close-from -D --chdir -h --host -p --prompt -r --role -t --type -U --other-user -T --command-timeout',
  ),
  nohup: grammar(''),
  time: grammar('-f --format -o --output'),
  command: grammar(''),
  builtin: grammar(''),
}

/** At most this many readings of one wrapper's options (an unknown option may or may not take a value). */
const MAX_READINGS = 8

export type WrappedCommand = { argv: string[] } | { script: string }

/**
 * What the wrapper `argv[0]` (a base name) runs, under every reading of its options: an unknown
 * option is read both as a flag and as taking the next word, so a deny rule errs towards matching.
 */
export function wrappedCommands(name: string, argv: readonly string[]): WrappedCommand[] {
  const spec = RESTRICT_WRAPPERS[name]
  if (!spec) return []
  const out: WrappedCommand[] = []
  const pending: number[] = [1]
  const visited = new Set<number>()
  while (pending.length > 0 && out.length < MAX_READINGS) {
    const start = pending.pop() as number
    if (visited.has(start)) continue
    visited.add(start)
    readFrom(spec, argv, start, out, pending)
  }
  return out
}

function readFrom(
  spec: WrapperGrammar,
  argv: readonly string[],
  start: number,
  out: WrappedCommand[],
  pending: number[],
): void {
  let i = start
  while (i < argv.length) {
    const word = argv[i] as string
    if (word === '--') {
      i += 1
      break
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i += 1
      continue
    }
    if (!word.startsWith('-') || word === '-') break
    const option = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
    if (spec.scriptOptions?.has(option)) {
      const script = word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[i + 1]
      if (script !== undefined) out.push({ script })
      return
    }
    if (spec.valueOptions.has(word)) {
      i += 2
      continue
    }
    // `-u0`, `--user=bob` carry their value; any other option may take the next word too.
    if (!word.includes('=') && !spec.valueOptions.has(option.slice(0, 2))) pending.push(i + 2)
    i += 1
  }
  const command = argv.slice(i + spec.operands)
  const first = command[0]
  // flock's -c comes after its lock file: `flock F -c 'rm x'`.
  if (first !== undefined && spec.scriptOptions?.has(first)) {
    if (command[1] !== undefined) out.push({ script: command[1] })
    return
  }
  if (command.length > 0) out.push({ argv: command })
}
