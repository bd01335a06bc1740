import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { workspaceEnvFiles } from '../../../../src/main/core/sandbox/sandbox-paths'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-env-files-')))
  dirs.push(root)
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), 'X=1\n')
  }
  return root
}

describe('the .env files the read-only sandbox hides', () => {
  it('finds them at the root and two levels down, in every spelling the classifier calls secret', () => {
    const root = tree([
      '.env',
      '.ENV.Production',
      '.envrc',
      'apps/web/.env.local',
      'packages/.env',
      'a/b/c/.env',
      'node_modules/dep/.env',
      '.github/.env',
      'environment.ts',
      '.envoy',
    ])
    const found = workspaceEnvFiles(root).map((hidden) => hidden.path.slice(root.length + 1))
    expect(found.sort()).toEqual([
      '.ENV.Production',
      '.env',
      '.envrc',
      'apps/web/.env.local',
      'packages/.env',
    ])
    expect(workspaceEnvFiles(root).every((hidden) => hidden.kind === 'file')).toBe(true)
  })

  it('hides a .env symlink where it points', () => {
    const root = tree(['config/real-secrets'])
    symlinkSync(join(root, 'config', 'real-secrets'), join(root, '.env'))
    expect(workspaceEnvFiles(root)).toEqual([{ path: join(root, 'config', 'real-secrets'), kind: 'file' }])
  })

  it('an unreadable or missing workspace hides nothing and does not throw', () => {
    expect(workspaceEnvFiles('/nonexistent/shellgate-workspace')).toEqual([])
  })
})
