import { existsSync, statSync } from 'node:fs'
import { readSealedEnv } from '../env/sanitize-entry'

/** Sealed variables that name a CA bundle file (SSL_CERT_DIR names a folder: reported, never offered). */
export const CA_FILE_VARIABLES = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  'NIX_SSL_CERT_FILE',
  'SSL_CERT_DIR',
] as const

export interface CaHint {
  /** The variable, or `network.caCertFile` for Shellgate's own setting. */
  name: string
  value: string
  source: 'sealed' | 'settings'
  /** A regular file Shellgate could use for its own requests (not the setting already in use). */
  usable: boolean
}

/**
 * Node's TLS errors for a server certificate it could not trust (an unknown issuer, a
 * self-signed chain, a corporate proxy re-signing traffic), as opposed to any other failure.
 */
const CERTIFICATE_FAILURE =
  /UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT_LOCALLY)|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED|CERT_UNTRUSTED|unable to verify the first certificate|self[- ]signed certificate|certificate/i

export function isCertificateFailure(reason: string): boolean {
  return CERTIFICATE_FAILURE.test(reason)
}

/**
 * Which CA settings exist, for a "Test connection" that failed on a certificate: the user's own
 * CA variables (sealed away from Shellgate's requests on purpose, seed 000) and Shellgate's setting.
 * The path is shown: it is a file name the user set, not a secret.
 */
export function findCaHints(
  runtimeEnv: Readonly<Record<string, string | undefined>>,
  caCertFile: string | undefined,
): CaHint[] {
  const sealed = readSealedEnv(runtimeEnv)
  const hints: CaHint[] = []
  for (const name of CA_FILE_VARIABLES) {
    const value = sealed[name]?.trim()
    if (!value) continue
    const isFile = name !== 'SSL_CERT_DIR' && existsSync(value) && statSync(value).isFile()
    hints.push({ name, value, source: 'sealed', usable: isFile && value !== caCertFile })
  }
  if (caCertFile)
    hints.push({ name: 'network.caCertFile', value: caCertFile, source: 'settings', usable: false })
  return hints
}
