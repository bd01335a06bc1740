import { z } from 'zod'
import type { WireErrorSchema } from './errors'

/** Larger envelopes are refused before they are parsed, whichever transport carried them. */
export const MAX_ENVELOPE_BYTES = 1024 * 1024

export const RequestIdSchema = z.union([z.number().int().nonnegative(), z.string().min(1).max(64)])
export type RequestId = z.infer<typeof RequestIdSchema>

export const RequestEnvelopeSchema = z
  .object({
    kind: z.literal('request'),
    id: RequestIdSchema,
    method: z.string().min(1).max(128),
    params: z.unknown(),
  })
  .strict()
export type RequestEnvelope = z.infer<typeof RequestEnvelopeSchema>

export type ResponseEnvelope =
  | { kind: 'response'; id: RequestId | null; ok: true; result: unknown }
  | { kind: 'response'; id: RequestId | null; ok: false; error: z.infer<typeof WireErrorSchema> }

export interface EventEnvelope {
  kind: 'event'
  name: string
  payload: unknown
}

export type ServerMessage = ResponseEnvelope | EventEnvelope
