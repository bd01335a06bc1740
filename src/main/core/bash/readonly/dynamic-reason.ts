/** Why a part expanded at run time keeps the command from being judged, in the user's terms. */
export function describeDynamicPart(part: string): string {
  const braces = / \(brace expansion: (.+)\)$/.exec(part)
  if (braces) return `${part.slice(0, braces.index)}: its brace expansion ${braces[1]}`
  if (part.startsWith('$(') && !part.startsWith('$(('))
    return `${part} is a command substitution: it runs first`
  if (part.startsWith('`')) return `${part} is a command substitution: it runs first`
  if (part.startsWith('<(') || part.startsWith('>('))
    return `${part} is a process substitution: it runs a command`
  if (part.startsWith("$'")) return `${part} holds an escape bash decodes in a way this reading does not`
  if (part.startsWith('$((')) return `${part} is arithmetic expanded at run time`
  if (/\$[~=^+]/.test(part)) return `${part} is a parameter expansion in zsh, which sessions may run`
  if (part.startsWith('$')) return `${part} is a variable expanded at run time`
  if (part.startsWith('{')) return `${part} is a brace expansion`
  if (/^[?*+@!]\(/.test(part)) return `${part} is an extended glob`
  return `${part} is only known at run time`
}
