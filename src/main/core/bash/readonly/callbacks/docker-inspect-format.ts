import type { PolicyCheck } from '../flag-types'

// One action that only picks a field: `{{.State.Status}}`, `{{json .NetworkSettings}}`, `{{- .Id -}}`.
const FIELD_ACTION = /^-?\s*(?:json\s+)?((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*-?$/
// Objects that hold the environment when printed whole.
const HOLDS_ENVIRONMENT = new Set(['.Config', '.ContainerConfig'])

/**
 * docker inspect prints a container's (or image's) environment, where tokens and passwords live.
 * Only a Go template whose every action picks a field chain is read-only: `$`, `.`, `index`,
 * `printf`, pipes, variables, range/with, comments, and any field named like Env reach the
 * environment or are not understood, and are refused with what was not understood.
 */
export const dockerInspectFormatCheck: PolicyCheck = ({ flags }) => {
  const formats = flags.filter((f) => f.flag === '-f' || f.flag === '--format').map((f) => f.value ?? '')
  if (formats.length === 0)
    return 'docker inspect without -f/--format prints the environment, which holds secrets'
  for (const format of formats) {
    const problem = findTemplateProblem(format)
    if (problem) return problem
  }
  return null
}

function findTemplateProblem(format: string): string | null {
  if (!format.includes('{{'))
    return `docker inspect --format ${JSON.stringify(format)} prints whole objects, environment included`
  let at = 0
  for (;;) {
    const open = format.indexOf('{{', at)
    if (open < 0) break
    const close = format.indexOf('}}', open + 2)
    if (close < 0) return `docker inspect --format ${JSON.stringify(format)} has a {{ without its }}`
    const action = format.slice(open + 2, close)
    const field = FIELD_ACTION.exec(action)?.[1]
    if (field === undefined)
      return `docker inspect --format action {{${action}}} is not a plain field, and may print the environment`
    if (/env/i.test(field))
      return 'docker inspect --format naming Env prints the environment, which holds secrets'
    if (HOLDS_ENVIRONMENT.has(field))
      return `docker inspect --format {{${action}}} prints a whole object, environment included`
    at = close + 2
  }
  return null
}
