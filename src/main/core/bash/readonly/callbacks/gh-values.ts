import type { PolicyCheck } from '../flag-types'
import { findJqFilterProblem } from './jq-filter'

/**
 * gh reads the host from values like `https://evil.example/o/r`, `user@host` or `host/owner/repo`,
 * and would send the user's token there.
 */
export const ghValuesCheck: PolicyCheck = ({ flags, positionals }) => {
  // gh -q/--jq runs a jq filter with gh's own environment (which holds GH_TOKEN).
  for (const { flag, value } of flags) {
    const problem = flag === '-q' || flag === '--jq' ? findJqFilterProblem(value ?? '') : null
    if (problem) return `gh ${flag}: ${problem}`
  }
  const values = [...flags.map((f) => f.value ?? ''), ...positionals]
  const remote = values.find(
    (value) => value.includes('://') || value.includes('@') || (value.match(/\//g)?.length ?? 0) >= 2,
  )
  return remote === undefined ? null : `gh value ${JSON.stringify(remote)} could point gh at another host`
}
