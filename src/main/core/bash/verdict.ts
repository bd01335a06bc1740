/** How one simple command is joined to the one before it. */
export type Connector = '&&' | '||' | '|' | '|&' | ';'

export interface EnvAssignment {
  name: string
  /** null when the value is dynamic ($x, $(…), `…`). */
  value: string | null
}

export interface Redirect {
  /** The operator as written: `>`, `>>`, `<`, `2>`, `&>`, `>&`, `<<`, `<<<`, … */
  operator: string
  /** Static target after quote removal; null when any part is dynamic. */
  target: string | null
  /** Here-doc body when the redirect is `<<` / `<<-`. */
  heredoc?: string
  /** Statement-level redirects apply to the whole statement, command-level to one command. */
  level: 'statement' | 'command'
}

/** One simple command of a compound command line, after analysis and the read-only policy. */
export interface CommandPart {
  /** The source text of this simple command. */
  text: string
  /** The words bash will run, after quote removal and backslash processing; null when any word is dynamic. */
  argv: string[] | null
  envAssignments: EnvAssignment[]
  redirects: Redirect[]
  /** The connector before this command; null for the first. */
  connector: Connector | null
  readOnly: boolean
  /** Why this part is or is not read-only, in words a user can act on. */
  reason: string
}

/**
 * A read-only command the person should still see first: it reads a secrets location, or a place
 * outside the workspace (and the folders the user listed).
 */
export interface ReadConcern {
  kind: 'secret' | 'outside-workspace'
  /** The path as the command will read it, `~` expanded. */
  path: string
  /** Plain words for the approval card: "reads outside the workspace: /etc/passwd". */
  reason: string
}

/** What `classify` answers for a command line. */
export interface CommandVerdict {
  command: string
  /** false when the line is over the length cap or does not parse. */
  parsed: boolean
  readOnly: boolean
  /** parsed, nothing unsupported, nothing dynamic: only then may prefix/wildcard rules match. */
  permissionSafe: boolean
  reason: string
  parts: CommandPart[]
  /** Node kinds that were not walked (subshell, if, for, function, background `&`, …). */
  unsupported: string[]
  /** Only on a read-only verdict: reads the decision asks about before running. */
  asks?: ReadConcern[]
}
