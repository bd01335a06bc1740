import { analyzeCommand } from '../bash/analysis/analyze-command'
import { splitRuleWords } from './command-words'
import { wrappedCommands } from './wrapper-commands'

/**
 * Commands a command runs for you: `bash -c 'rm -rf x'`, `eval rm x`, `xargs rm`,
 * `find . -exec rm {} +`, `timeout 5 rm x`. Deny and ask rules look at these too, so a denied
 * program cannot be reached by handing it to another one. Allow rules never do: an allow rule
 * covers what it names, not what that program may start.
 */

// Deep enough for `sudo nohup setsid exec timeout 5 rm x`; MAX_COMMANDS bounds the work.
const MAX_DEPTH = 8
const MAX_COMMANDS = 64
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash'])
const XARGS_VALUE_OPTIONS = new Set([
  '-I',
  '-n',
  '-P',
  '-L',
  '-d',
  '-E',
  '-s',
  '-a',
  '--max-args',
  '--max-procs',
  '--max-lines',
  '--delimiter',
  '--eof',
  '--max-chars',
  '--arg-file',
  '--replace',
])
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir'])

/** Every command started by `argv`, recursively, each as argv words. */
export function nestedCommands(argv: readonly string[]): string[][] {
  const out: string[][] = []
  collect(argv, 0, out)
  return out
}

function collect(argv: readonly string[], depth: number, out: string[][]): void {
  if (depth >= MAX_DEPTH || out.length >= MAX_COMMANDS) return
  for (const inner of directlyStarted(argv)) {
    if (out.length >= MAX_COMMANDS) return
    if (inner.length === 0) continue
    out.push(inner)
    collect(inner, depth + 1, out)
  }
}

function directlyStarted(argv: readonly string[]): string[][] {
  const name = baseName(argv[0] ?? '')
  if (SHELLS.has(name)) {
    const flag = argv.findIndex((word, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(word))
    const script = flag === -1 ? undefined : argv[flag + 1]
    return script === undefined ? [] : commandsInScript(script)
  }
  if (name === 'eval') return commandsInScript(argv.slice(1).join(' '))
  if (name === 'watch')
    return commandsInScript(
      afterOptions(argv, new Set(['-n', '--interval', '-d', '--differences'])).join(' '),
    )
  if (name === 'xargs') return [afterOptions(argv, XARGS_VALUE_OPTIONS)]
  if (name === 'find') return findExecCommands(argv)
  return wrappedCommands(name, argv).flatMap((inner) =>
    'script' in inner ? commandsInScript(inner.script) : [inner.argv],
  )
}

/** The words after the command's own options (and their values). */
function afterOptions(argv: readonly string[], valueOptions: ReadonlySet<string>): string[] {
  let i = 1
  while (i < argv.length) {
    const word = argv[i] as string
    if (word === '--') return argv.slice(i + 1)
    if (!word.startsWith('-') || word === '-') break
    i += valueOptions.has(word) ? 2 : 1
  }
  return argv.slice(i)
}

function findExecCommands(argv: readonly string[]): string[][] {
  const out: string[][] = []
  for (let i = 1; i < argv.length; i += 1) {
    if (!FIND_EXEC.has(argv[i] as string)) continue
    const start = i + 1
    let end = start
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end += 1
    out.push(argv.slice(start, end))
    i = end
  }
  return out
}

/** The simple commands of a script; for a dynamic one, its words as written. */
function commandsInScript(script: string): string[][] {
  if (script.trim() === '') return []
  const analysis = analyzeCommand(script)
  if (!analysis.parsed || analysis.commands.length === 0) {
    const words = splitRuleWords(script)
    return words === null ? [script.split(/\s+/).filter(Boolean)] : [words]
  }
  return analysis.commands.map(
    (command) => command.argv ?? splitRuleWords(command.text) ?? command.text.split(/\s+/),
  )
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1)
}
