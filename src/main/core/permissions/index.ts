/** Permission modes, rules and "always allow" suggestions for the Bash tool (seed 003). */
export {
  type CommandRegistry,
  defaultCommandRegistryPath,
  loadCommandRegistry,
  parseCommandRegistry,
} from './command-registry'
export { type DecideInput, decideBashPermission } from './decide-permission'
export type * from './permission-types'
export { parseBashRule, validateBashRule } from './rule-syntax'
export { type BashDecisionSummary, ruleSetsFromScoped, summarizeDecision } from './settings-rule-sets'
export { MAX_PREFIX_SUGGESTIONS, suggestRules } from './suggest-rules'
export {
  type CommandSettings,
  readCommandSettings,
  readSettingsFile,
  SettingsFileError,
} from './settings-files'
