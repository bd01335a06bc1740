import { accessSync, constants, statSync } from 'node:fs'
import type { NetworkSettings } from '../../../shared/settings'
import { createCaLoader } from './ca-certificate'
import { resolveNetworkConfig } from './network-config'
import { NetworkConfigError } from './network-error'

/**
 * Checks network settings before they are saved, so a bad proxy or a missing CA file is refused
 * next to its field instead of failing every later request. Throws NetworkConfigError.
 */
export function validateNetworkSettings(network: NetworkSettings): void {
  resolveNetworkConfig({ settings: { network }, env: {} })
  const file = network.caCertFile
  if (!file) return
  try {
    // A FIFO or device would block or never end the read below: only a regular file is a CA bundle.
    if (!statSync(file).isFile()) throw new NetworkConfigError('network.caCertFile', `${file} is not a file`)
    accessSync(file, constants.R_OK)
    // The same read and PEM check the HTTP client does, so a file it would refuse is never saved.
    createCaLoader({ value: file, source: 'network.caCertFile' })()
  } catch (error) {
    if (error instanceof NetworkConfigError) throw error
    const code = (error as NodeJS.ErrnoException).code
    throw new NetworkConfigError(
      'network.caCertFile',
      code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be read (${code ?? 'error'})`,
    )
  }
}
