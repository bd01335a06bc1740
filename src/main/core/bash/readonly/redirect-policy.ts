import type { Redirect } from '../verdict'

const INPUT_OPERATOR = /^(?:\d*|\{\w+\})(?:<|<<|<<-|<&|<<<)$/
const OUTPUT_OPERATOR = /^(?:\d*|\{\w+\})(?:>|>>|>\||&>|&>>|>&)$/
const DESCRIPTOR_TARGET = /^(?:\d+|-)$/

/** Why a redirect makes the command not read-only, or null when it only reads or discards. */
export function refuseRedirects(redirects: Redirect[]): string | null {
  for (const redirect of redirects) {
    const { operator, target } = redirect
    if (target === null) return `the target of ${operator} is computed at run time`
    // Bash opens these as network sockets, whichever direction the redirect points.
    if (/^\/dev\/(?:tcp|udp)\//.test(target)) return `${operator} ${target} opens a network connection`
    if (INPUT_OPERATOR.test(operator)) continue
    if (!OUTPUT_OPERATOR.test(operator)) return `${operator} ${target} opens a file for writing`
    if (target === '/dev/null') continue
    if (operator.endsWith('>&') && DESCRIPTOR_TARGET.test(target)) continue
    return `${operator} ${target} writes to a file`
  }
  return null
}
