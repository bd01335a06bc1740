import { z } from 'zod'
import { AuditEntrySchema, AuditStatusSchema, DecidedBySchema } from '../../audit'

/** Settings → Environment: the login-shell capture, names only, never values. */
export const EnvironmentReportSchema = z.object({
  status: z.enum(['captured', 'failed', 'timed_out', 'skipped', 'pending']),
  shell: z.string().nullable(),
  durationMs: z.number(),
  keys: z.array(z.string()),
  sealedKeys: z.array(z.string()),
  messages: z.array(z.string()),
  pathPatched: z.boolean(),
  /** Names sealed (given back to children) or dropped when Shellgate started. */
  entry: z.object({ sealedKeys: z.array(z.string()), droppedKeys: z.array(z.string()) }),
  /** Credential-like names withheld from agent commands (environment.passThrough lets them through). */
  withheldKeys: z.array(z.string()),
  passedThroughKeys: z.array(z.string()),
  /** Code-injection names also removed for commands run without asking. */
  autoRunRemovedKeys: z.array(z.string()),
})

export const ShellCandidateSchema = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.string(),
  available: z.boolean(),
  source: z.string(),
})

/** Settings → Shell: what exists on this machine and which one new sessions use. */
export const ShellsReportSchema = z.object({
  platform: z.string(),
  candidates: z.array(ShellCandidateSchema),
  selected: ShellCandidateSchema.nullable(),
  why: z.string(),
})

/** "Where will this URL go?" */
export const UrlRouteSchema = z.object({
  route: z.enum(['proxy', 'direct', 'rejected']),
  proxy: z.string().nullable(),
  rule: z.string(),
  source: z.string().nullable(),
  pattern: z.string().optional(),
  reason: z.string(),
})

export const ConnectionReportSchema = z.object({
  status: z.enum(['ok', 'rejected', 'error']),
  url: z.string(),
  httpStatus: z.number().optional(),
  bytes: z.number().optional(),
  reason: z.string().optional(),
  code: z.string().optional(),
  traceId: z.string().nullable(),
  /**
   * When the failure was an untrusted certificate: the CA settings found (sealed variables such as
   * NODE_EXTRA_CA_CERTS, Shellgate's own network.caCertFile), and which file could be used.
   */
  caHints: z
    .array(
      z.object({
        name: z.string(),
        value: z.string(),
        source: z.enum(['sealed', 'settings']),
        usable: z.boolean(),
      }),
    )
    .optional(),
})

/** The audit log's own line schema: the UI sees exactly what is stored. */
export const AuditEntryViewSchema = AuditEntrySchema

export const AuditQuerySchema = z
  .object({
    session: z.string().max(128).optional(),
    decidedBy: DecidedBySchema.optional(),
    status: AuditStatusSchema.optional(),
    text: z.string().max(1_000).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .strict()
