import { getEnvValue } from './windows-env'

/** Characters cmd.exe interprets even inside an argument; each is escaped with `^`. */
const CMD_SPECIAL = /["%&()<>^|]/g
const NEEDS_QUOTES = /[\s"%&()<>^|]/

/**
 * seed 000: an argument with whitespace or a special character is wrapped in double quotes, and
 * `"` `%` `&` `(` `)` `<` `>` `^` `|` inside it are escaped with `^`, so cmd.exe never sees an
 * operator or a variable expansion where the caller meant a literal.
 */
export function quoteCmdArgument(argument: string): string {
  if (argument === '') return '""'
  if (!NEEDS_QUOTES.test(argument)) return argument
  return `"${argument.replace(CMD_SPECIAL, '^$&')}"`
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
  const line = [script, ...args].map(quoteCmdArgument).join(' ')
  return { file: comSpec(env), args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true }
}

/** cmd.exe for a shell-mode command line: the line goes to `/d /s /c` as written. */
export function cmdShellInvocation(command: string, shell: string): CmdInvocation {
  return { file: shell, args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true }
}

export function comSpec(env: Record<string, string | undefined>): string {
  return getEnvValue(env, 'ComSpec', 'win32') || 'cmd.exe'
}
