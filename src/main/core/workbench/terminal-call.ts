import type { CommandVerdict } from '../bash/verdict'
import type { TaskRegistry } from '../tasks/task-registry'
import { WorkbenchError } from './workbench-error'

/**
 * Terminal tasks one agent session may have running at once (issue 23.4): each is a process the
 * agent can drive for as long as it lives, so a loop that opens REPLs cannot pile them up.
 */
export const MAX_TERMINAL_TASKS_PER_SESSION = 8

const TYPE_INTO_IT = 'runs on a terminal: once allowed, the agent can type into it for as long as it runs'

/**
 * Starting an interactive program is never read-only (issue 23.2): whatever the command is, what
 * is typed into it later was never classified. Every part needs a rule or the person, as a part
 * that is not read-only does; a deny rule still matches as before.
 */
export function interactiveVerdict(verdict: CommandVerdict): CommandVerdict {
  return {
    ...verdict,
    readOnly: false,
    reason: TYPE_INTO_IT,
    parts: verdict.parts.map((part) => ({
      ...part,
      readOnly: false,
      reason: `${part.reason}; ${TYPE_INTO_IT}`,
    })),
    asks: undefined,
  }
}

/** Shells and interpreters: typing into one of them is running code that nobody classified. */
const INTERPRETERS = new Map<string, string>([
  ...[
    'bash',
    'sh',
    'zsh',
    'dash',
    'ksh',
    'mksh',
    'fish',
    'tcsh',
    'csh',
    'ash',
    'busybox',
    'nu',
    'pwsh',
    'xonsh',
  ].map((name) => [name, 'a shell'] as [string, string]),
  ...[
    'python',
    'ipython',
    'node',
    'deno',
    'bun',
    'ruby',
    'irb',
    'perl',
    'php',
    'lua',
    'luajit',
    'R',
    'julia',
  ].map((name) => [name, 'an interpreter'] as [string, string]),
  ...[
    'ghci',
    'scala',
    'clj',
    'sbcl',
    'guile',
    'racket',
    'ocaml',
    'utop',
    'erl',
    'iex',
    'jshell',
    'swift',
  ].map((name) => [name, 'an interpreter'] as [string, string]),
  ...['psql', 'mysql', 'mariadb', 'sqlite3', 'mongosh', 'mongo', 'redis-cli', 'duckdb', 'cqlsh'].map(
    (name) => [name, 'a database shell'] as [string, string],
  ),
  ...['ssh', 'mosh', 'telnet', 'nc', 'ncat', 'socat'].map(
    (name) => [name, 'a remote shell or connection'] as [string, string],
  ),
  ...[
    'docker',
    'podman',
    'kubectl',
    'lxc',
    'nsenter',
    'chroot',
    'sudo',
    'su',
    'doas',
    'script',
    'screen',
    'tmux',
  ].map((name) => [name, 'a shell in a container or as another user'] as [string, string]),
  ...['gdb', 'lldb', 'pdb', 'vim', 'vi', 'nvim', 'emacs', 'nano', 'less', 'more', 'man'].map(
    (name) => [name, 'a program that can run commands'] as [string, string],
  ),
])

/** Words that run the next word as the program. */
const WRAPPERS = new Set([
  'env',
  'exec',
  'command',
  'nohup',
  'time',
  'nice',
  'ionice',
  'stdbuf',
  'timeout',
  'npx',
  'uv',
  'poetry',
  'pipenv',
])

/**
 * The first shell or interpreter the command starts, for the card: "python3 (an interpreter)".
 * A part whose words are dynamic is named by its text, since it could start anything.
 */
export function interpreterOf(verdict: CommandVerdict): string | null {
  for (const part of verdict.parts) {
    const first = part.text.trim().split(/\s+/)[0] ?? ''
    // Words are dynamic somewhere: the program itself is known only when it is a plain word.
    if (part.argv === null && !/^[A-Za-z0-9_./+-]+$/.test(first))
      return `${part.text} (its program is only known when it runs)`
    const words = part.argv ? [...part.argv] : [first]
    while (words.length > 0) {
      const word = words[0]!
      const name = normalise(word)
      if (
        WRAPPERS.has(name) ||
        /^-/.test(word) ||
        /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) ||
        /^\d+(\.\d+)?[smhd]?$/.test(word)
      ) {
        // `uv run`, `poetry run`, `pipenv run`: the program is the word after `run`.
        words.shift()
        if (words[0] === 'run') words.shift()
        continue
      }
      const kind = INTERPRETERS.get(name)
      if (kind) return `${basename(word)} (${kind})`
      break
    }
  }
  if (verdict.parts.length === 0 && !verdict.parsed) return `${verdict.command} (it could not be parsed)`
  return null
}

/** What the approval card says about a terminal run. */
export function terminalApproval(verdict: CommandVerdict): { interpreter: string | null; note: string } {
  const interpreter = interpreterOf(verdict)
  const note = interpreter
    ? `Runs on a terminal. Allowing it lets the agent type into ${interpreter} for as long as it runs: what it types there runs as code, and is not checked by Shellgate.`
    : 'Runs on a terminal. Allowing it lets the agent type into it for as long as it runs.'
  return { interpreter, note }
}

/** Refuses a new terminal run when the session already has the most it may have. */
export async function refuseOverTerminalCap(tasks: TaskRegistry, sessionId: string): Promise<void> {
  const running = (await tasks.list(sessionId)).filter((task) => task.tty && task.status === 'running').length
  if (running < MAX_TERMINAL_TASKS_PER_SESSION) return
  throw new WorkbenchError(
    'denied',
    `this session already has ${MAX_TERMINAL_TASKS_PER_SESSION} terminal tasks running (the most one agent session may have); stop one with task_stop first`,
    'tty',
  )
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1)
}

/** `/usr/bin/python3.12` → `python`: the version is not what makes it an interpreter. */
function normalise(word: string): string {
  const name = basename(word)
  const bare = name.replace(/(\d+(\.\d+)*)$/, '').replace(/[-.]$/, '')
  return INTERPRETERS.has(name) || WRAPPERS.has(name) ? name : bare
}
