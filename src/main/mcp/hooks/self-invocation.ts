import { shQuote } from '../../core/shell/posix-quote'

/**
 * The shell text that runs this same Shellgate with `args`: the node binary, its flags (a loader
 * in tests) and the entry script, each absolute and quoted, never a bare `shellgate` that the
 * client's shell may not find (Codex runs `bash -lc`, whose profile resets PATH). The home this
 * hook answered for goes with it when it was not the default.
 */
export function selfInvocation(args: readonly string[], env: NodeJS.ProcessEnv): string {
  const entry = process.argv[1]
  if (!entry) throw new Error('cannot tell how this Shellgate was started (no entry script)')
  const home = env.SHELLGATE_HOME ? [`SHELLGATE_HOME=${word(env.SHELLGATE_HOME)}`] : []
  return [...home, ...[process.execPath, ...process.execArgv, entry, ...args].map(word)].join(' ')
}

/** Quoted only when it has to be, so the agent's transcript stays readable. */
function word(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shQuote(value)
}
