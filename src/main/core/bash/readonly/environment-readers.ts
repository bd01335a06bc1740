import { isCredentialName } from '../../secrets/credential-env-names'

/** What a command that prints shell or environment variables reads: every variable, or these names. */
export type EnvironmentRead = { all: true } | { all: false; names: string[] }

export interface EnvironmentVerdict {
  readOnly: boolean
  reason: string
  /** On a read-only verdict: the variables it prints, for the credential check (issue 21.4). */
  reads?: EnvironmentRead
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The builtins and tools that print variables (issue 21.4): `printenv [NAME…]`, bare `env`, bare
 * `set`, `declare -p [NAME…]` / `typeset -p`, `export -p`. They only print, so they are read-only,
 * and the decision asks when they print every variable or a name that carries a credential. Any
 * other form changes the shell (`set -e`, `declare x=1`, `export X=1`) or runs a command
 * (`env X=1 cmd`) and is left to the other rules. Undefined: not a variable printer.
 */
export function evaluateEnvironmentReader(argv: readonly string[]): EnvironmentVerdict | undefined {
  const [name, ...args] = argv
  if (name === 'printenv') {
    if (args.some((arg) => arg.startsWith('-') && arg !== '-0' && arg !== '--null')) return undefined
    const names = args.filter((arg) => !arg.startsWith('-'))
    if (!names.every((word) => NAME.test(word))) return undefined
    return {
      readOnly: true,
      reason: 'printenv only prints environment variables',
      reads: names.length === 0 ? { all: true } : { all: false, names },
    }
  }
  if (name === 'env' && args.every((arg) => arg === '-0' || arg === '--null'))
    return {
      readOnly: true,
      reason: 'env without a command only prints the environment',
      reads: { all: true },
    }
  if (name === 'set' && args.length === 0)
    return { readOnly: true, reason: 'set alone only prints the shell variables', reads: { all: true } }
  if (name === 'export' && (args.length === 0 || (args.length === 1 && args[0] === '-p')))
    return { readOnly: true, reason: 'export -p only prints the exported variables', reads: { all: true } }
  if ((name === 'declare' || name === 'typeset') && (args.length === 0 || args[0] === '-p')) {
    const names = args.slice(1)
    if (!names.every((word) => NAME.test(word))) return undefined
    return {
      readOnly: true,
      reason: `${name} -p only prints variables`,
      reads: names.length === 0 ? { all: true } : { all: false, names },
    }
  }
  return undefined
}

/** The credential-named variables a read touches: all of them for a full listing. */
export function credentialReads(read: EnvironmentRead | undefined): string[] | 'all' {
  if (read === undefined) return []
  if (read.all) return 'all'
  return read.names.filter(isCredentialName)
}
