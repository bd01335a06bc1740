import { win32 } from 'node:path'
import { ExecInputError } from './exec-input-error'
import { systemRoot } from './kill-tree.win32'
import { getEnvValue } from './windows-env'

/** Characters cmd.exe acts on in a command line; each is escaped with `^`, the quotes included. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g
/** npm, yarn and pnpm shims re-run their arguments through cmd.exe (`%*`), which parses them twice. */
const CMD_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i

/**
 * One argument for a `cmd /d /s /c "…"` line (seed 000; the scheme cross-spawn uses). First the
 * MSVCRT rules the called program parses with (backslashes before a quote doubled, the quote
 * escaped), then double quotes around it, then `^` before every cmd.exe metacharacter, the quotes
 * themselves included: with `^"` cmd never enters a quoted state, so no `&`, `%` or `|` inside an
 * argument can end the command or expand a variable.
 */
export function quoteCmdArgument(argument: string, doubleEscape = false): string {
  const msvcrt = argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')
  const escaped = `"${msvcrt}"`.replace(CMD_META, '^$1')
  return doubleEscape ? escaped.replace(CMD_META, '^$1') : escaped
}

/** The script path itself is not quoted (cmd would take a quoted first word as a title); its metacharacters are escaped. */
export function escapeCmdCommand(path: string): string {
  return path.replace(CMD_META, '^$1')
}

export interface CmdInvocation {
  file: string
  args: string[]
  windowsVerbatimArguments: true
}

/**
 * .cmd and .bat cannot start with `shell: false`; they run through ComSpec `/d /s /c` (/d: no
 * AutoRun commands from the registry; /s: strip exactly the outer quotes we add).
 */
export function cmdScriptInvocation(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): CmdInvocation {
  refuseArgumentLineBreaks(script, args)
  const doubleEscape = CMD_SHIM.test(script)
  const line = [escapeCmdCommand(script), ...args.map((arg) => quoteCmdArgument(arg, doubleEscape))].join(' ')
  return { file: comSpec(env), args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true }
}

/** cmd.exe for a shell-mode command line: the line goes to `/d /s /c` as written. */
export function cmdShellInvocation(command: string, shell: string): CmdInvocation {
  refuseLineBreak('the cmd.exe command', command)
  return { file: shell, args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true }
}

/**
 * For every argv that cmd.exe parses: a .cmd/.bat script's arguments, and cmd.exe's own when argv
 * mode names it directly (`cmd /c "…"`), which is the same command line by another door.
 */
export function refuseArgumentLineBreaks(target: string, args: string[]): void {
  for (const [index, arg] of args.entries())
    refuseLineBreak(`args[${index}] for ${win32.basename(target)}`, arg)
}

/**
 * cmd.exe ends a command at a line break, whatever the quoting, and runs what follows as a second
 * command (the class of CVE-2024-24576), so neither CR nor LF may reach a cmd command line.
 */
function refuseLineBreak(what: string, text: string): void {
  if (/[\r\n]/.test(text)) {
    throw new ExecInputError(
      `${what} contains a line break; cmd.exe would run the text after it as another command`,
    )
  }
}

/**
 * ComSpec when it names an absolute path; else %SystemRoot%\System32\cmd.exe. Never a bare
 * `cmd.exe`: Windows looks a bare name up in the current directory first, and that may be a
 * repository with its own cmd.exe.
 */
export function comSpec(env: Record<string, string | undefined>): string {
  const value = getEnvValue(env, 'ComSpec', 'win32')?.trim()
  if (value && win32.isAbsolute(value)) return value
  return win32.join(systemRoot(env), 'System32', 'cmd.exe')
}
