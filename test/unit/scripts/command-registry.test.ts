import { execFile } from 'node:child_process'
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCommandRegistry } from '../../../src/main/core/permissions/command-registry'

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, '..', '..', '..')
const committed = join(repo, 'resources', 'command-registry.json')
const generator = join(repo, 'scripts', 'command-registry', 'generate.ts')
const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs')

async function check(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, generator, '--check', '--file', file], {
      cwd: repo,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('the command registry (npm run registry:check)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-registry-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('the committed file is byte for byte what the pinned Fig package generates', async () => {
    const result = await check(committed)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('is up to date')
  })

  it('a single changed byte is detected, with its offset', async () => {
    const copy = join(dir, 'changed.json')
    await copyFile(committed, copy)
    const bytes = await readFile(copy)
    const at = bytes.indexOf('"pnpm"') + 1
    bytes[at] = 'q'.charCodeAt(0)
    await writeFile(copy, bytes)
    const result = await check(copy)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`differs from a fresh build at byte ${at}`)
  })

  it('a truncated or missing file fails the check', async () => {
    const short = join(dir, 'short.json')
    const bytes = await readFile(committed)
    await writeFile(short, bytes.subarray(0, bytes.length - 1))
    expect((await check(short)).code).toBe(1)
    const missing = await check(join(dir, 'missing.json'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('is missing')
  })

  it('records the pinned version and source hash in its header, and stays under 3 MiB', async () => {
    const text = await readFile(committed, 'utf8')
    const { header } = JSON.parse(text) as { header: Record<string, unknown> }
    expect(header).toMatchObject({ source: '@withfig/autocomplete', version: '2.692.3' })
    expect(header.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect((await stat(committed)).size).toBeLessThan(3 * 1024 * 1024)
    const registry = parseCommandRegistry(text)
    expect(registry.root('git')?.subcommand('commit')).toBeDefined()
    expect(registry.root('pnpm')?.options.get('--dir')).toEqual({ takesValue: true, persistent: true })
  })

  it('refuses text that is not a registry', () => {
    expect(() => parseCommandRegistry('{"commands":[]}')).toThrow('not a Shellgate command registry')
  })
})
