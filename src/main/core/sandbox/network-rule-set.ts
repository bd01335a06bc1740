import type { NetworkRule, NetworkRuleScope, NetworkRuleSet } from './egress-policy'

/** One scope's lists and the file (or `session:<id>`) they live in. */
export interface NetworkRuleSource {
  scope: NetworkRuleScope
  source: string
  allowlist: readonly string[]
  denylist: readonly string[]
}

/** The rules in effect, narrowest scope first (session, this workspace on this machine, user), as command rules read. */
export function networkRuleSet(sources: readonly NetworkRuleSource[]): NetworkRuleSet {
  const order: NetworkRuleScope[] = ['session', 'local', 'user']
  const sorted = [...sources].sort((a, b) => order.indexOf(a.scope) - order.indexOf(b.scope))
  const rules = (pick: (source: NetworkRuleSource) => readonly string[]): NetworkRule[] =>
    sorted.flatMap((source) =>
      pick(source).map((pattern) => ({ pattern, scope: source.scope, source: source.source })),
    )
  return { allow: rules((source) => source.allowlist), deny: rules((source) => source.denylist) }
}
