import type { PolicyCheck } from '../flag-types'
import { parseSedScript } from './sed-grammar'

/**
 * Why a sed script is not read-only: it writes (`w`, `W`, `s///w`), runs a command (`e`,
 * `s///e`), reads another file (`r`, `R`), or holds something the fail-closed grammar does not
 * understand, which it names. Null when every command only reads.
 */
export function findSedScriptProblem(script: string): string | null {
  const parsed = parseSedScript(script)
  return parsed.ok ? null : parsed.problem
}

/**
 * The script sed runs: every -e/--expression joined by newlines, as sed joins them (so `-e 'a\'
 * -e 'text'` is one a command), or else the first operand.
 */
export const sedScriptCheck: PolicyCheck = ({ flags, positionals }) => {
  const scripts = flags.filter((f) => f.flag === '-e' || f.flag === '--expression').map((f) => f.value ?? '')
  if (scripts.length === 0 && positionals[0] !== undefined) scripts.push(positionals[0])
  if (scripts.length === 0) return 'sed without a script'
  return findSedScriptProblem(scripts.join('\n'))
}
