import type {
  ContractShape,
  EventName,
  EventPayload,
  RequestInput,
  RequestName,
  RequestOutput,
} from './define'
import type { EventEnvelope, RequestEnvelope, ResponseEnvelope } from './envelope'
import { RpcError } from './rpc-error'

/** What a transport gives the client: the preload's two functions have exactly this shape. */
export interface ClientTransport {
  request(envelope: RequestEnvelope): Promise<ResponseEnvelope>
  onEvent(listener: (event: EventEnvelope) => void): () => void
}

export interface TypedClient<C extends ContractShape> {
  request<M extends RequestName<C>>(method: M, params: RequestInput<C, M>): Promise<RequestOutput<C, M>>
  on<E extends EventName<C>>(event: E, listener: (payload: EventPayload<C, E>) => void): () => void
}

/** Output is trusted as typed because main validated it against the same schema before sending. */
export function createClient<C extends ContractShape>(
  _contract: C,
  transport: ClientTransport,
): TypedClient<C> {
  let nextId = 1
  return {
    async request(method, params) {
      const response = await transport.request({ kind: 'request', id: nextId++, method, params })
      if (!response.ok) throw new RpcError(response.error.code, response.error.message)
      return response.result as never
    },
    on(event, listener) {
      return transport.onEvent((envelope) => {
        if (envelope.name === event) listener(envelope.payload as never)
      })
    },
  }
}
