import { z } from 'zod'

/** Every error that crosses the wire carries one of these codes. */
export const RPC_ERROR_CODES = ['unknown_method', 'invalid_input', 'denied', 'internal', 'cancelled'] as const
export const RpcErrorCodeSchema = z.enum(RPC_ERROR_CODES)
export type RpcErrorCode = z.infer<typeof RpcErrorCodeSchema>

export const WireErrorSchema = z.object({ code: RpcErrorCodeSchema, message: z.string() })
export type WireError = z.infer<typeof WireErrorSchema>

/** Thrown by handlers to send a specific code; rejected by the client with the code it received. */
export class RpcError extends Error {
  readonly code: RpcErrorCode

  constructor(code: RpcErrorCode, message: string) {
    super(message)
    this.name = 'RpcError'
    this.code = code
  }

  toWire(): WireError {
    return { code: this.code, message: this.message }
  }
}
