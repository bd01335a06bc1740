import type { Redirect } from '../verdict'

const INPUT_OPERATOR = /^\d*(?:<|<<|<<-|<&|<<<)$/
const OUTPUT_OPERATOR = /^\d*(?:>|>>|>\||&>|&>>|>&)$/
// `{PATH}<file`: bash stores the new descriptor's number in that variable, and it stays set for
// the rest of the line, so `{PATH}</dev/null true; ls` runs ./11/ls.
const NAMED_DESCRIPTOR = /^\{(\w+)\}/
const DESCRIPTOR_TARGET = /^(?:\d+|-)$/

/** Why a redirect makes the command not read-only, or null when it only reads or discards. */
export function refuseRedirects(redirects: Redirect[]): string | null {
  for (const redirect of redirects) {
    const { operator, target } = redirect
    const named = NAMED_DESCRIPTOR.exec(operator)
    if (named)
      return `${operator} assigns the shell variable ${named[1]}, which later commands use (PATH, IFS…)`
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
