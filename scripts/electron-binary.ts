import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string }

/**
 * Finds the Electron binary the way the electron package records it (path.txt → dist/), without
 * `require('electron')`, which tries to download the binary when it is missing.
 */
export function findElectronBinary(projectRoot: string): ElectronBinary {
  const packageDir = join(projectRoot, 'node_modules', 'electron')
  const pathFile = join(packageDir, 'path.txt')
  if (!existsSync(pathFile)) {
    return {
      found: false,
      reason: 'node_modules/electron/path.txt is missing (the Electron binary was never downloaded)',
    }
  }
  const relativeBinary = readFileSync(pathFile, 'utf8').trim()
  const binary = join(packageDir, 'dist', relativeBinary)
  if (!relativeBinary || !existsSync(binary)) {
    return { found: false, reason: `the Electron binary ${binary} is missing` }
  }
  return { found: true, path: binary }
}
