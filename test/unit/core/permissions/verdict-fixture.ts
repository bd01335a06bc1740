import type {
  CommandPart,
  CommandVerdict,
  EnvAssignment,
  Redirect,
} from '../../../../src/main/core/bash/verdict'

/**
 * Builds the analysis seam's data by hand, so permission tables state exactly which parts are
 * read-only, whatever the read-only policy decides on a given day. The classifier's own tables live
 * with the classifier.
 */
export interface PartSpec {
  argv: string[] | null
  text?: string
  readOnly?: boolean
  env?: EnvAssignment[]
  redirects?: Array<Pick<Redirect, 'operator' | 'target'>>
}

export function verdictOf(
  parts: PartSpec[],
  options: { permissionSafe?: boolean; command?: string } = {},
): CommandVerdict {
  const built: CommandPart[] = parts.map((spec, index) => ({
    text: spec.text ?? (spec.argv ?? []).join(' '),
    argv: spec.argv,
    envAssignments: spec.env ?? [],
    redirects: (spec.redirects ?? []).map((r) => ({ ...r, level: 'command' as const })),
    connector: index === 0 ? null : '&&',
    readOnly: spec.readOnly ?? false,
    reason: spec.readOnly ? 'read-only by fixture' : 'not read-only by fixture',
  }))
  const command =
    options.command ??
    built
      .map((part) => {
        const env = part.envAssignments.map((e) => `${e.name}=${e.value ?? '$X'} `).join('')
        const redirects = part.redirects.map((r) => ` ${r.operator}${r.target ?? '$X'}`).join('')
        return `${env}${part.text}${redirects}`
      })
      .join(' && ')
  const readOnly = built.length > 0 && built.every((part) => part.readOnly)
  return {
    command,
    parsed: true,
    readOnly,
    permissionSafe: options.permissionSafe ?? built.every((part) => part.argv !== null),
    reason: readOnly ? 'every command is read-only' : 'a command is not read-only',
    parts: built,
    unsupported: [],
  }
}

/** One command from whitespace-separated words. */
export function simple(text: string, readOnly = false): CommandVerdict {
  return verdictOf([{ argv: text.split(' '), readOnly }])
}
