import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI_ENTRY, TSX_LOADER } from '../mcp/test-hub'

/**
 * A folder with a `shellgate` on it that runs this source tree, as `npm link` gives a user: put it
 * first on PATH and `connect` writes the plain `shellgate` (after running `shellgate --version`).
 */
export async function shellgateBinDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sg-bin-'))
  await mkdir(dir, { recursive: true })
  const file = join(dir, 'shellgate')
  await writeFile(
    file,
    `#!/bin/sh\nexec '${process.execPath}' --import '${TSX_LOADER}' '${CLI_ENTRY}' "$@"\n`,
  )
  await chmod(file, 0o755)
  return dir
}
