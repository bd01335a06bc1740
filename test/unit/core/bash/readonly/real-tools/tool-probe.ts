import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ProbeResult {
  status: number
  stderr: string
}

// A probe that runs the tool for real (an option we read wrongly) is stopped after this long.
const PROBE_TIMEOUT_SECONDS = 2

/**
 * Run `tool` once per argument list, all in one bubblewrap sandbox (read-only root, a fresh tmpfs
 * as the folder, no network, no capabilities), stdin from /dev/null, and return each exit status
 * and stderr. The probes ask the tool's own option parser what a word means; one we read wrongly
 * may run the tool, which then can write nothing outside the throwaway folder.
 */
export async function probeTool(
  tool: string,
  argLists: readonly (readonly string[])[],
): Promise<ProbeResult[]> {
  const out = mkdtempSync(join(tmpdir(), 'shellgate-probe-'))
  try {
    const lines = argLists.map((args, index) => {
      const words = [tool, ...args].map(shellQuote).join(' ')
      return `timeout -s KILL ${PROBE_TIMEOUT_SECONDS} ${words} </dev/null >/dev/null 2>"$OUT/${index}.err"; echo $? >"$OUT/${index}.rc"`
    })
    writeFileSync(join(out, 'probes.sh'), `cd "$(mktemp -d)" || exit 1\n${lines.join('\n')}\n`)
    const run = await runToEnd('bwrap', [
      ...['--ro-bind', '/', '/', '--tmpfs', '/tmp', '--dev', '/dev', '--proc', '/proc'],
      ...['--bind', out, out, '--unshare-all', '--cap-drop', 'ALL', '--die-with-parent'],
      ...['--setenv', 'OUT', out, '--setenv', 'LC_ALL', 'C', '--unsetenv', 'POSIXLY_CORRECT'],
      ...['bash', join(out, 'probes.sh')],
    ])
    if (run.status !== 0) throw new Error(`bwrap probe of ${tool} failed (${run.status}): ${run.stderr}`)
    return argLists.map((_, index) => ({
      status: Number(readFileSync(join(out, `${index}.rc`), 'utf8').trim()),
      stderr: readFileSync(join(out, `${index}.err`), 'utf8'),
    }))
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

// Every probe ends in a getopt error unless a table is wrong; the whole batch is bounded anyway.
const BATCH_TIMEOUT_MS = 120_000

function runToEnd(file: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), BATCH_TIMEOUT_MS)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, stderr })
    })
  })
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** What glibc's getopt_long said about one long option word. */
export type LongAnswer =
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'unknown' }
  | { kind: 'noArgument'; name: string }
  | { kind: 'requiresArgument'; name: string }
  | { kind: 'accepted' }

const PROBE_STOP = '--zq-probe-stop'

/** The probe words that make getopt_long describe `--written`, and stop the tool right after. */
export function longProbe(written: string): string[] {
  return [`${written}=`, PROBE_STOP]
}

/** The probe that makes getopt_long name a required-argument option: the option, last. */
export function requiredProbe(written: string): string[] {
  return [written]
}

/** Read glibc's messages (the same in coreutils, util-linux, procps, binutils and argp tools). */
export function readLongAnswer(result: ProbeResult): LongAnswer {
  const text = result.stderr
  const ambiguous = /option '--[^']*' is ambiguous; possibilities:((?: '--[^']+')+)/.exec(text)
  if (ambiguous) {
    const candidates = [...(ambiguous[1] as string).matchAll(/'(--[^']+)'/g)].map(
      (match) => match[1] as string,
    )
    return { kind: 'ambiguous', candidates }
  }
  const noArgument = /option '(--[^']+)' doesn't allow an argument/.exec(text)
  if (noArgument) return { kind: 'noArgument', name: noArgument[1] as string }
  const requires = /option '(--[^']+)' requires an argument/.exec(text)
  if (requires) return { kind: 'requiresArgument', name: requires[1] as string }
  if (/unrecognized option '--zq-probe-stop'/.test(text)) return { kind: 'accepted' }
  if (/unrecognized option|invalid option|unknown option/.test(text)) return { kind: 'unknown' }
  return { kind: 'accepted' }
}

/**
 * What getopt said about one short option letter: unknown, takes no value, needs one, takes one
 * only attached, or makes the tool act and exit at once (`-h`, `-V`, `id -Z`), so that no word or
 * letter after it is ever read.
 */
export type ShortAnswer = 'unknown' | 'none' | 'required' | 'optional' | 'exits'

/** `-x` alone, `-x}` (an attached value, or `}` read as the next letter), and `-x -}` (read on?). */
export function shortProbes(letter: string): string[][] {
  return [[`-${letter}`], [`-${letter}}`], [`-${letter}`, '-}']]
}

const BRACE_INVALID = /invalid option -- '}'/

export function readShortAnswer(
  alone: ProbeResult,
  withBrace: ProbeResult,
  readsOn: ProbeResult,
): ShortAnswer {
  if (/invalid option -- /.test(alone.stderr) && letter(alone.stderr) !== '}') return 'unknown'
  if (/option requires an argument -- /.test(alone.stderr)) return 'required'
  if (!BRACE_INVALID.test(readsOn.stderr)) return 'exits'
  return BRACE_INVALID.test(withBrace.stderr) ? 'none' : 'optional'
}

function letter(stderr: string): string | null {
  return /invalid option -- '(.)'/.exec(stderr)?.[1] ?? null
}
