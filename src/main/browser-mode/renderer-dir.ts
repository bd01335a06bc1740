import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The built renderer sits at out/renderer. This module runs from out/main (bundled) or from
 * src/main (tests under tsx), so walk up until a built renderer is found.
 */
export function locateRendererDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.SHELLGATE_RENDERER_DIR
  if (configured) return existsSync(join(configured, 'index.html')) ? configured : null
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 6; depth++) {
    for (const candidate of [join(dir, 'renderer'), join(dir, 'out', 'renderer')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate
    }
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return null
}
