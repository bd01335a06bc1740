import type { PolicyCheck } from '../flag-types'

/** The only commands xargs may drive when read-only: each reads and prints, whatever its arguments. */
export const XARGS_DRIVEN_COMMANDS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'head',
  'tail',
])

export const xargsCommandCheck: PolicyCheck = ({ positionals }, context) => {
  // Windows xargs ports differ in how they quote and spawn; nothing there is known to be read-only.
  if (context.platform === 'win32') return 'xargs on Windows is not known to be read-only'
  const driven = positionals[0]
  if (driven === undefined || XARGS_DRIVEN_COMMANDS.has(driven)) return null
  return `xargs would run ${driven}; xargs is read-only only driving ${[...XARGS_DRIVEN_COMMANDS].join(', ')}`
}
