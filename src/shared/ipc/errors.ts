import { z } from 'zod'
import { RPC_ERROR_CODES, type RpcErrorCode, type WireError } from './rpc-error'

export { RPC_ERROR_CODES, RpcError, type RpcErrorCode, type WireError } from './rpc-error'

export const RpcErrorCodeSchema = z.enum(RPC_ERROR_CODES) satisfies z.ZodType<RpcErrorCode>
export const WireErrorSchema = z.object({
  code: RpcErrorCodeSchema,
  message: z.string(),
}) satisfies z.ZodType<WireError>
