import {
  type ContractShape,
  type RequestSpec,
  type Role,
  roleMayCall,
  type RequestName,
  type RequestOutput,
  type RequestParsedInput,
} from '../../shared/ipc/define'
import {
  MAX_ENVELOPE_BYTES,
  type RequestId,
  RequestEnvelopeSchema,
  type ResponseEnvelope,
} from '../../shared/ipc/envelope'
import { RpcError, type WireError } from '../../shared/ipc/errors'

/**
 * Who is asking. A `ui` connection is the person: it sees every session (as the Tasks screen does)
 * and its connection id scopes cancellation only. An `agent` connection (the hub socket) may call
 * `agent` methods only, and its connection id is its identity: it owns the sessions it created.
 */
export interface RequestContext {
  connectionId: string
  role: Role
  transport: 'electron-ipc' | 'websocket' | 'loopback'
  /** Aborted when the caller disconnects before the answer is ready. */
  signal: AbortSignal
}

export type Handlers<C extends ContractShape> = {
  [M in RequestName<C>]: (
    input: RequestParsedInput<C, M>,
    context: RequestContext,
  ) => Promise<RequestOutput<C, M>> | RequestOutput<C, M>
}

export interface Dispatcher {
  /** Never throws: every failure becomes a coded error response. */
  dispatch(raw: unknown, context: RequestContext): Promise<ResponseEnvelope>
}

export interface DispatcherOptions {
  /** Turns a service's own error into a coded one (e.g. a settings error naming its field); null = not mine. */
  mapError?: (error: unknown, method: string) => RpcError | null
}

export function createDispatcher<C extends ContractShape>(
  contract: C,
  handlers: Handlers<C>,
  options: DispatcherOptions = {},
): Dispatcher {
  const requests: Record<string, RequestSpec> = contract.requests
  const handlerTable = handlers as Record<string, (input: unknown, context: RequestContext) => unknown>

  return {
    async dispatch(raw, context) {
      const envelope = RequestEnvelopeSchema.safeParse(raw)
      if (!envelope.success) {
        return failure(idOf(raw), {
          code: 'invalid_input',
          message: `malformed request envelope: ${firstIssue(envelope.error)}`,
        })
      }
      const { id, method, params } = envelope.data
      // Own-property lookup: `constructor` or `__proto__` must not resolve to a handler.
      const spec = Object.hasOwn(requests, method) ? requests[method] : undefined
      const handler = Object.hasOwn(handlerTable, method) ? handlerTable[method] : undefined
      if (!spec || !handler)
        return failure(id, { code: 'unknown_method', message: `unknown method "${method}"` })
      // Before validation: an agent learns nothing about a ui method's input, and no handler runs.
      if (!roleMayCall(context.role, spec.role)) {
        return failure(id, {
          code: 'denied',
          message: `${method}: only the person (the Shellgate UI) may call this; this connection is an agent`,
        })
      }

      const input = spec.input.safeParse(params)
      if (!input.success) {
        return failure(id, { code: 'invalid_input', message: `${method}: ${firstIssue(input.error)}` })
      }
      if (context.signal.aborted)
        return failure(id, { code: 'cancelled', message: `${method}: the caller went away` })

      try {
        const result = await handler(input.data, context)
        const output = spec.output.safeParse(result)
        if (!output.success) {
          return failure(id, {
            code: 'internal',
            message: `${method} produced an invalid result: ${firstIssue(output.error)}`,
          })
        }
        return { kind: 'response', id, ok: true, result: output.data }
      } catch (error) {
        const mapped = options.mapError?.(error, method)
        return failure(id, mapped ? mapped.toWire() : toWireError(error, method, context.signal))
      }
    },
  }
}

/** A text envelope over the cap is refused before JSON.parse spends memory on it. */
export function parseTextEnvelope(
  text: string,
): { ok: true; value: unknown } | { ok: false; response: ResponseEnvelope } {
  if (Buffer.byteLength(text, 'utf8') > MAX_ENVELOPE_BYTES) {
    return {
      ok: false,
      response: failure(null, {
        code: 'invalid_input',
        message: `message exceeds ${MAX_ENVELOPE_BYTES} bytes`,
      }),
    }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return {
      ok: false,
      response: failure(null, { code: 'invalid_input', message: 'message is not valid JSON' }),
    }
  }
}

function toWireError(error: unknown, method: string, signal: AbortSignal): WireError {
  if (error instanceof RpcError) return error.toWire()
  if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return { code: 'cancelled', message: `${method} was cancelled` }
  }
  // Internal messages may name paths but never carry stacks to an untrusted renderer.
  const message = error instanceof Error ? error.message : String(error)
  return { code: 'internal', message: `${method} failed: ${message}` }
}

function failure(id: RequestId | null, error: WireError): ResponseEnvelope {
  return { kind: 'response', id, ok: false, error }
}

function idOf(raw: unknown): RequestId | null {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return null
  const id = (raw as { id: unknown }).id
  if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return id
  if (typeof id === 'string' && id.length > 0 && id.length <= 64) return id
  return null
}

function firstIssue(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>
}): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''
  return `${where}${issue.message}`
}
