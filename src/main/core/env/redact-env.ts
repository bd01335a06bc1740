/**
 * What may be shown of an environment: names always, values never, except a proxy URL with its
 * credentials cut out (users need to see which proxy is in effect, never its password).
 */
const URL_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i

/** `http://user:secret@proxy:3128` → `http://***@proxy:3128`; anything unparseable → `***`. */
export function redactProxyUrl(value: string): string {
  const trimmed = value.trim()
  if (URL_USERINFO.test(trimmed)) return trimmed.replace(URL_USERINFO, '$1***@')
  // Without a scheme a `user:pass@host` form still hides a secret before the last @.
  if (trimmed.includes('@')) return `***@${trimmed.slice(trimmed.lastIndexOf('@') + 1)}`
  return trimmed
}
