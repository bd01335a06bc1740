import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { scanFolder } from '../../../../src/main/core/sandbox/folder-scan'
import { FIXTURE_ROOT } from './sandbox-fixture'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(FIXTURE_ROOT, 'shellgate-scan-')))
  dirs.push(root)
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), 'X=1\n')
  }
  return root
}

/** Ages a folder's times past the scan's racy window, so its listing is cached. */
function age(...paths: string[]) {
  const old = new Date(Date.now() - 60_000)
  for (const path of paths) utimesSync(path, old, old)
}

describe('the scan of the person folders (secrets at any depth, sockets, repositories)', () => {
  it('finds secret files at any depth, in dot folders and dependency folders too, in every spelling the classifier calls secret', () => {
    const root = tree([
      '.env',
      '.ENV.Production',
      'apps/web/.env.local',
      'a/b/c/d/e/.env',
      '.config/app/credentials.json',
      'node_modules/pkg/.npmrc',
      'keys/deploy.pem',
      'src/index.ts',
      'README.md',
    ])
    const found = scanFolder(root)
      .secretFiles.map((path) => path.slice(root.length + 1))
      .sort()
    expect(found).toEqual([
      '.ENV.Production',
      '.config/app/credentials.json',
      '.env',
      'a/b/c/d/e/.env',
      'apps/web/.env.local',
      'keys/deploy.pem',
      'node_modules/pkg/.npmrc',
    ])
  })

  it('a link named like a secret is hidden where it points; a symlinked folder is not walked', () => {
    const root = tree(['config/prod.settings', 'elsewhere/.env'])
    symlinkSync(join(root, 'config/prod.settings'), join(root, '.env'))
    symlinkSync(join(root, 'elsewhere'), join(root, 'linked'))
    expect(scanFolder(root).secretFiles.sort()).toEqual([
      join(root, 'config/prod.settings'),
      join(root, 'elsewhere/.env'),
    ])
  })

  it('reports .git folders and files without entering them, and Unix sockets', async () => {
    const root = tree(['.git/HEAD', '.git/objects/x/.env', 'sub/.git', 'vendor/lib/.git/config'])
    const server = createServer()
    await new Promise<void>((done) => server.listen(join(root, 'sub', 'agent.sock'), done))
    try {
      const scan = scanFolder(root)
      expect(scan.gitEntries).toEqual([
        { path: join(root, '.git'), kind: 'dir' },
        { path: join(root, 'sub/.git'), kind: 'file' },
        { path: join(root, 'vendor/lib/.git'), kind: 'dir' },
      ])
      expect(scan.sockets).toEqual([join(root, 'sub', 'agent.sock')])
      expect(scan.secretFiles).toEqual([])
    } finally {
      await new Promise((done) => server.close(done))
    }
  })

  it('past its cap it stops and names every folder it did not read (the planner then fails closed for them)', () => {
    const root = tree(['a/1', 'b/1', 'c/1', 'c/d/.env'])
    const scan = scanFolder(root, 2)
    expect(scan.folders).toBe(2)
    expect(scan.unread.sort()).toEqual([join(root, 'b'), join(root, 'c')])
    expect(scan.secretFiles).toEqual([])
  })

  it('a cached listing is read again when the folder changes: a new .env is found on the next scan', () => {
    const root = tree(['app/src/index.ts'])
    age(root, join(root, 'app'), join(root, 'app/src'))
    expect(scanFolder(root).secretFiles).toEqual([])
    writeFileSync(join(root, 'app/src/.env'), 'KEY=1\n')
    expect(scanFolder(root).secretFiles).toEqual([join(root, 'app/src/.env')])
  })
})
