import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type NetworkSettings, NetworkSettingsSchema } from '../../../shared/settings'
import { NetworkConfigError } from './network-error'

/**
 * The `network` section of SHELLGATE_HOME/settings.json, for headless callers (`shellgate net`)
 * that have no settings store. Read-only on purpose: a diagnostic must not move or rewrite the
 * user's file, so an unusable one is an error naming it rather than a reset to defaults.
 */
export async function readNetworkSettings(home: string): Promise<NetworkSettings> {
  const file = join(home, 'settings.json')
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new NetworkConfigError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new NetworkConfigError(file, 'is not valid JSON')
  }
  const network =
    typeof json === 'object' && json !== null ? (json as { network?: unknown }).network : undefined
  const parsed = NetworkSettingsSchema.safeParse(network ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new NetworkConfigError(`network.${issue.path.join('.')}`, `${issue.message} (in ${file})`)
  }
  return parsed.data
}
