import { posixHubEndpoint } from './endpoint.posix'
import { win32HubEndpoint } from './endpoint.win32'
import type { HubEndpoint, HubEndpointInput } from './endpoint-types'

export type { HubEndpoint, HubEndpointInput } from './endpoint-types'

/** One function per platform behind this facade, so the Windows path is tested on Linux. */
export function hubEndpoint(input: HubEndpointInput): HubEndpoint {
  return input.platform === 'win32' ? win32HubEndpoint(input) : posixHubEndpoint(input)
}
