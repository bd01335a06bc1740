import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const biome = resolve('node_modules/.bin/biome')

/** Lints one file at a given path under a copy of our biome.json, so the layering rules apply as in src/. */
async function lintAt(
  root: string,
  path: string,
  source: string,
): Promise<{ failed: boolean; output: string }> {
  const file = join(root, path)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, source)
  try {
    const { stdout, stderr } = await run(biome, ['lint', path], { cwd: root })
    return { failed: false, output: stdout + stderr }
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string }
    return { failed: true, output: stdout + stderr }
  } finally {
    await rm(file)
  }
}

describe('layering rules (biome)', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-lint-'))
    await copyFile('biome.json', join(root, 'biome.json'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it.each([
    ['src/main/core/probe.ts', "import { app } from 'electron'\nexport const x = app\n"],
    ['src/main/core/exec/probe.ts', "import { useState } from 'react'\nexport const x = useState\n"],
    ['src/main/core/exec/probe.ts', "import { App } from '../../../renderer/App'\nexport const x = App\n"],
    [
      'src/main/core/probe.ts',
      "import { createHandlers } from '../ipc/handlers'\nexport const x = createHandlers\n",
    ],
    ['src/shared/probe.ts', "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n"],
    ['src/renderer/probe.ts', "import { spawn } from 'node:child_process'\nexport const x = spawn\n"],
    ['src/renderer/probe.ts', "import { ipcRenderer } from 'electron'\nexport const x = ipcRenderer\n"],
    ['src/main/ipc/probe.ts', "import { ipcMain } from 'electron'\nexport const x = ipcMain\n"],
    ['src/main/core/probe.ts', "import { app } from 'electron/main'\nexport const x = app\n"],
    ['src/main/core/probe.ts', "import { jsx } from 'react/jsx-runtime'\nexport const x = jsx\n"],
    ['src/main/ipc/probe.ts', "import { ipcMain } from 'electron/main'\nexport const x = ipcMain\n"],
    [
      'src/renderer/probe.ts',
      "import { ipcRenderer } from 'electron/renderer'\nexport const x = ipcRenderer\n",
    ],
    [
      'src/main/cli/commands/probe.ts',
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js'\nexport const x = Server\n",
    ],
    [
      'src/main/core/probe.ts',
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js'\nexport const x = Client\n",
    ],
    // The sandbox room plans below the executor and the verdict (issue 24.3)...
    [
      'src/main/core/sandbox/probe.ts',
      "import type { ExecutionPort } from '../exec/types'\nexport type X = ExecutionPort\n",
    ],
    [
      'src/main/core/sandbox/probe.ts',
      "import { ExecInputError } from '../exec'\nexport const x = ExecInputError\n",
    ],
    [
      'src/main/core/sandbox/probe.ts',
      "import { classifyCommand } from '../bash/classify'\nexport const x = classifyCommand\n",
    ],
    [
      'src/main/core/sandbox/deep/probe.ts',
      "import { runBashTool } from '../../bash/tool/run-bash-tool'\nexport const x = runBashTool\n",
    ],
    // ...and its own override must not drop the rules every core file has.
    ['src/main/core/sandbox/probe.ts', "import { app } from 'electron'\nexport const x = app\n"],
    ['src/main/core/sandbox/probe.ts', "import { useState } from 'react'\nexport const x = useState\n"],
    [
      'src/main/core/sandbox/probe.ts',
      "import { createHandlers } from '../../ipc/handlers'\nexport const x = createHandlers\n",
    ],
    [
      'src/main/core/sandbox/probe.ts',
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js'\nexport const x = Client\n",
    ],
  ])('reports bad layering for %s importing %j', async (path, source) => {
    const result = await lintAt(root, path, source)
    expect(result.failed).toBe(true)
    expect(result.output).toContain('bad layering')
  })

  it.each([
    [
      'src/main/core/probe.ts',
      "import { spawn } from 'node:child_process'\nimport { z } from 'zod'\nexport const x = [spawn, z]\n",
    ],
    [
      'src/main/core/exec/probe.ts',
      "import { contract } from '../../../shared/ipc/contract'\nexport const x = contract\n",
    ],
    ['src/main/transports/electron.ts', "import { ipcMain } from 'electron'\nexport const x = ipcMain\n"],
    ['src/preload/index.ts', "import { ipcRenderer } from 'electron'\nexport const x = ipcRenderer\n"],
    ['src/main/index.ts', "import { app } from 'electron'\nexport const x = app\n"],
    [
      'src/main/mcp/sdk/probe.ts',
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js'\nexport const x = Server\n",
    ],
    [
      'src/main/core/sandbox/probe.ts',
      "import { HOME_SECRETS } from '../secrets/home-secrets'\nimport { InputError } from '../input-error'\nexport const x = [HOME_SECRETS, InputError]\n",
    ],
    // The executor may import the planner it applies.
    [
      'src/main/core/exec/probe.ts',
      "import { wrapSpawnPlan } from '../sandbox/wrap-plan'\nexport const x = wrapSpawnPlan\n",
    ],
  ])('allows %s importing %j', async (path, source) => {
    const result = await lintAt(root, path, source)
    expect(result.output).not.toContain('bad layering')
    expect(result.failed).toBe(false)
  })
})

describe('no two files import each other (issue 24.3: platform files share types through a types file)', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-lint-cycle-'))
    await copyFile('biome.json', join(root, 'biome.json'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  async function lintPair(facade: string, platform: string): Promise<{ failed: boolean; output: string }> {
    await mkdir(join(root, 'src/main/hub'), { recursive: true })
    await writeFile(join(root, 'src/main/hub/probe.ts'), facade)
    await writeFile(join(root, 'src/main/hub/probe.win32.ts'), platform)
    try {
      const { stdout, stderr } = await run(biome, ['lint', 'src'], { cwd: root })
      return { failed: false, output: stdout + stderr }
    } catch (error) {
      const { stdout, stderr } = error as { stdout: string; stderr: string }
      return { failed: true, output: stdout + stderr }
    }
  }

  it('reports a facade and its platform file that import each other, a type import included', async () => {
    const result = await lintPair(
      "import { win32Probe } from './probe.win32'\nexport interface ProbeInput { home: string }\nexport const probe = win32Probe\n",
      "import type { ProbeInput } from './probe'\nexport const win32Probe = (input: ProbeInput) => input.home\n",
    )
    expect(result.failed).toBe(true)
    expect(result.output).toContain('noImportCycles')
  })

  it('allows the same split when the type lives in a types file', async () => {
    await writeFile(
      join(root, 'src/main/hub/probe-types.ts'),
      'export interface ProbeInput { home: string }\n',
    )
    const result = await lintPair(
      "import { win32Probe } from './probe.win32'\nexport const probe = win32Probe\n",
      "import type { ProbeInput } from './probe-types'\nexport const win32Probe = (input: ProbeInput) => input.home\n",
    )
    expect(result.output).not.toContain('noImportCycles')
    expect(result.failed).toBe(false)
  })
})
