import type { z } from 'zod'

/**
 * Who may call a method. `ui` is the person (Electron window, browser mode with its key) and may
 * call everything; `agent` is a connection on the hub socket and may call only `agent` methods.
 */
export type Role = 'ui' | 'agent'

export interface RequestSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
  /** The least role that may call it; the dispatcher refuses others before validating input. */
  role: Role
}

export interface EventSpec<P extends z.ZodType = z.ZodType> {
  payload: P
}

export interface ContractShape {
  requests: Record<string, RequestSpec>
  events: Record<string, EventSpec>
}

export type RequestName<C extends ContractShape> = keyof C['requests'] & string
export type EventName<C extends ContractShape> = keyof C['events'] & string
export type RequestInput<C extends ContractShape, M extends RequestName<C>> = z.input<
  C['requests'][M]['input']
>
export type RequestParsedInput<C extends ContractShape, M extends RequestName<C>> = z.output<
  C['requests'][M]['input']
>
export type RequestOutput<C extends ContractShape, M extends RequestName<C>> = z.output<
  C['requests'][M]['output']
>
export type EventPayload<C extends ContractShape, E extends EventName<C>> = z.output<
  C['events'][E]['payload']
>

export function defineContract<const C extends ContractShape>(contract: C): C {
  return contract
}

/** Whether a connection with `caller`'s role may call a method that requires `required`. */
export function roleMayCall(caller: Role, required: Role): boolean {
  return caller === 'ui' || required === 'agent'
}
