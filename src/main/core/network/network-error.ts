/**
 * A network setting (or the request URL) that cannot be used. `setting` names where the value came
 * from (`network.httpProxy`, `SHELLGATE_HTTP_PROXY`, `url`…) so the user knows what to fix; nothing
 * is sent when one of these is thrown.
 */
export class NetworkConfigError extends Error {
  override name = 'NetworkConfigError'
  readonly code = 'invalid_config'

  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`)
  }
}

export type HttpErrorCode =
  /** The egress policy refused the destination; nothing was sent to it. */
  | 'rejected'
  | 'timeout'
  | 'aborted'
  | 'body_too_large'
  | 'too_many_redirects'
  /** DNS, connection, TLS or protocol failure. */
  | 'network'

/** A request that was tried and did not produce a usable response. */
export class HttpRequestError extends Error {
  override name = 'HttpRequestError'

  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly traceId: string,
  ) {
    super(message)
  }
}
