import type { PolicyCheck } from '../flag-types'

// Whole objects printed by `.`, `json .`, `.Config` or `.ContainerConfig` include the environment.
const WHOLE_OBJECT = /(?<![\w.$])\.(?![\w])|\.(?:Container)?Config(?![.\w])/

/**
 * docker inspect prints a container's (or image's) environment, where tokens and passwords live.
 * Only a Go template that picks fields, none of them Env or an object that holds it, is read-only.
 */
export const dockerInspectFormatCheck: PolicyCheck = ({ flags }) => {
  const formats = flags.filter((f) => f.flag === '-f' || f.flag === '--format').map((f) => f.value ?? '')
  if (formats.length === 0)
    return 'docker inspect without -f/--format prints the environment, which holds secrets'
  for (const format of formats) {
    if (!format.includes('{{'))
      return `docker inspect --format ${JSON.stringify(format)} prints whole objects, environment included`
    if (/env/i.test(format))
      return 'docker inspect --format naming Env prints the environment, which holds secrets'
    if (WHOLE_OBJECT.test(format))
      return `docker inspect --format ${JSON.stringify(format)} prints a whole object, environment included`
  }
  return null
}
