import { parseBashRule, wildcardMatches } from './rule-syntax'

/**
 * Roots whose bare `root:*` hands over far more than one command: they delete, escalate, run other
 * programs or scripts, or send data out. `git:*` is here because it covers `git push`.
 */
export const HIGH_RISK_ROOTS: readonly string[] = [
  'rm',
  'sudo',
  'su',
  'doas',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'curl',
  'wget',
  'eval',
  'exec',
  'env',
  'xargs',
  'command',
  'nohup',
  'chmod',
  'chown',
  'dd',
  'ssh',
  'scp',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'git',
  'git push',
]

/** Commands no real rule is written for: a wildcard that matches them matches every command. */
const PROBE_COMMANDS = ['zq9-shellgate-probe', "zq9-shellgate-probe --flag 'value' > out"]

/**
 * Why an allow rule is broad enough to need a deliberate act, in words a person reads before
 * confirming it; null for an ordinary rule. An approval card refuses such a rule outright, Settings
 * asks for confirmation, and a repository's file holding one is not trusted without this warning.
 */
export function broadRuleProblem(text: string): string | null {
  let rule: ReturnType<typeof parseBashRule>
  try {
    rule = parseBashRule(text)
  } catch {
    return null
  }
  if (rule.kind === 'wildcard') {
    // Nothing but wildcards and spaces (`*`, `**`, `* *`), or a pattern that matches commands no
    // rule is written for: it allows (nearly) every command.
    const onlyWildcards = rule.segments.every((segment) => segment.trim() === '')
    if (onlyWildcards || PROBE_COMMANDS.every((probe) => wildcardMatches(rule.segments, probe)))
      return `"${rule.text}" would allow every command without asking`
    // `rm *`, `sudo*`: a high-risk root followed by nothing but wildcards.
    const literal = (rule.segments[0] ?? '').replace(/\s+/g, ' ').trim()
    if (HIGH_RISK_ROOTS.includes(literal) && rule.segments.slice(1).every((s) => s.trim() === ''))
      return `"${rule.text}" would allow every ${literal} command without asking (${riskOf(literal)})`
    return null
  }
  if (rule.kind === 'prefix') {
    const root = rule.words.join(' ')
    if (HIGH_RISK_ROOTS.includes(root))
      return `"${rule.text}" would allow every ${root} command without asking (${riskOf(root)})`
  }
  return null
}

function riskOf(root: string): string {
  switch (root) {
    case 'rm':
      return 'it can delete any file'
    case 'sudo':
    case 'su':
    case 'doas':
      return 'it runs any command as another user'
    case 'curl':
    case 'wget':
    case 'ssh':
    case 'scp':
      return 'it can send and fetch anything over the network'
    case 'git':
    case 'git push':
      return 'it can push to any remote'
    case 'chmod':
    case 'chown':
    case 'dd':
      return 'it can change or overwrite any file'
    default:
      return 'it can run any other program'
  }
}
