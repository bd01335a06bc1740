/** Persisted settings (user + workspace + session rules) and the audit log. */
export type { AuditEntry, AuditEntryInput, AuditStatus, DecidedBy } from './audit-entry'
export { AuditEntrySchema, AuditStatusSchema, DecidedBySchema } from './audit-entry'
export { AUDIT_LINE_MAX_BYTES } from './audit-line'
export { AUDIT_FILE_NAME, type AuditLog, createAuditLog } from './audit-log'
export {
  AUDIT_READ_DEFAULT_LIMIT,
  AUDIT_READ_MAX_LIMIT,
  type AuditFilter,
  type AuditPage,
} from './audit-reader'
export { SETTINGS_FILE_MODE, writeFileAtomic } from './atomic-write'
export { RULE_LISTS, RULE_SCOPES, type RuleList, type RuleScope, type ScopedRule } from './scoped-rules'
export { SettingsError } from './settings-error'
export { SETTINGS_FILE_MAX_BYTES, type SettingsWarning } from './settings-file'
export type { SettingsPatch } from './settings-patch'
export {
  openSettingsStore,
  type RuleChange,
  type SettingsChange,
  type SettingsStore,
  type SettingsStoreOptions,
} from './settings-store'
