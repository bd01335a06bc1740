import type { PolicyCheck } from '../flag-types'

// jq's grammar reads `$` and the name as two tokens, so `$ ENV`, `$\nENV` and `$ # comment⏎ENV`
// are all $ENV (checked with jq 1.7).
const JQ_ENV_VARIABLE = /\$(?:\s|#[^\n]*(?:\n|$))*ENV\b/
// The env builtin, $__prog_args-style names aside; `env` as any word (`my-env.json` too) costs a
// prompt, never a leak.
const JQ_ENV_BUILTIN = /\benv\b/
// include/import load files; input_filename and $__loc__ are harmless.
const JQ_LOADS_CODE = /\binclude\b|\bimport\b/
const JQ_GETPATH_ENV = /\bgetpath\s*\(\s*\[\s*"ENV/

/** Why this jq filter text is not read-only (reads the environment or loads code), or null. */
export function findJqFilterProblem(text: string): string | null {
  if (JQ_ENV_VARIABLE.test(text) || JQ_ENV_BUILTIN.test(text) || JQ_GETPATH_ENV.test(text))
    return 'jq $ENV/env exposes the environment, which holds secrets'
  const loads = JQ_LOADS_CODE.exec(text)
  return loads ? `jq ${loads[0]} loads code from files` : null
}

/** Every operand and flag value is checked: we do not guess which positional is the filter. */
export const jqFilterCheck: PolicyCheck = ({ positionals, flags }) => {
  for (const value of [...positionals, ...flags.map((f) => f.value ?? '')]) {
    const problem = findJqFilterProblem(value)
    if (problem) return problem
  }
  return null
}
