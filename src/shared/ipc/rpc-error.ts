/**
 * The error every RPC failure becomes, with no zod in it: the CLI's hook and ticket paths load
 * this and nothing of the contract's schemas (issue 20). errors.ts adds the schemas.
 */

/** Every error that crosses the wire carries one of these codes. */
export const RPC_ERROR_CODES = ['unknown_method', 'invalid_input', 'denied', 'internal', 'cancelled'] as const
export type RpcErrorCode = (typeof RPC_ERROR_CODES)[number]

export interface WireError {
  code: RpcErrorCode
  message: string
}

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
