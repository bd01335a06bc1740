import type { Redirection } from 'unbash'
import type { Redirect } from '../verdict'
import { findDynamicHeredocPart, readWord } from './word-value'

export interface ReadRedirect {
  redirect: Redirect
  /** Source text of the first run-time expansion in the target or here-doc body. */
  dynamicPart: string | null
}

/** The operator as written, with its descriptor: `2>`, `{fd}>`, `<<-`. */
function operatorText(node: Redirection): string {
  const descriptor = node.descriptor
  if (!descriptor) return node.operator
  if (descriptor.type === 'FileDescriptor') return `${descriptor.value}${node.operator}`
  return `{${descriptor.name}}${node.operator}`
}

// unbash 6 attaches every redirect of a simple command to that command (prefix or suffix), so all
// of them are command-level; redirects on compound commands live on `Redirected`, which is unsupported.
export function readRedirect(node: Redirection): ReadRedirect {
  const operator = operatorText(node)
  if (node.type === 'HereDoc') {
    const quoted = node.delimiter?.quoted ?? false
    const dynamicPart = quoted ? null : findDynamicHeredocPart(node.body.parts)
    return {
      redirect: {
        operator,
        target: node.delimiter?.value ?? null,
        heredoc: node.body.text,
        level: 'command',
      },
      dynamicPart,
    }
  }
  if (!node.target) return { redirect: { operator, target: null, level: 'command' }, dynamicPart: operator }
  const reading = readWord(node.target)
  return { redirect: { operator, target: reading.value, level: 'command' }, dynamicPart: reading.dynamicPart }
}
