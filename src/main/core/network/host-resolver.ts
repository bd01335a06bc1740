import { lookup } from 'node:dns/promises'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address a name resolves to; injectable so tests never ask real DNS about real names. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The system resolver (getaddrinfo, so /etc/hosts counts), all addresses in the OS's order. */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}
