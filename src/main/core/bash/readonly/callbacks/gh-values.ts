import type { PolicyCheck } from '../flag-types'

/**
 * gh reads the host from values like `https://evil.example/o/r`, `user@host` or `host/owner/repo`,
 * and would send the user's token there.
 */
export const ghValuesCheck: PolicyCheck = ({ flags, positionals }) => {
  const values = [...flags.map((f) => f.value ?? ''), ...positionals]
  const remote = values.find(
    (value) => value.includes('://') || value.includes('@') || (value.match(/\//g)?.length ?? 0) >= 2,
  )
  return remote === undefined ? null : `gh value ${JSON.stringify(remote)} could point gh at another host`
}
