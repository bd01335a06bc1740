import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ClassifyOptions, classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

// Issue 21.7: classify keeps file system answers between calls only where a later change is seen.
// Each test asks once (so every cache is warm), changes the file system at once (well inside any
// time-to-live), and asks again: the second verdict must judge the file system as it is now.
describe('answers kept between classify calls never hide a change', () => {
  const tempDir = tempDirsRemovedAfterEach()

  function places(): ClassifyOptions & { workspace: string; home: string } {
    const root = tempDir()
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(join(workspace, 'src', 'deep'), { recursive: true })
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
    writeFileSync(join(workspace, 'src', 'notes.txt'), 'notes')
    writeFileSync(join(workspace, 'src', 'deep', 'notes.txt'), 'notes')
    return { cwd: workspace, workspace, home, shellgateHome: join(home, '.shellgate'), platform: 'linux' }
  }

  const asks = (command: string, options: ClassifyOptions) =>
    (classifyCommand(command, options).asks ?? []).map((ask) => ask.kind)

  it('a folder swapped for a symlink to ~/.ssh right after a verdict: the next one asks', () => {
    const options = places()
    for (const command of ['cat src/notes.txt', 'head -1 src/deep/notes.txt', 'cd src && cat notes.txt']) {
      const folder = command.includes('deep')
        ? join(options.workspace, 'src', 'deep')
        : join(options.workspace, 'src')
      expect(classifyCommand(command, options)).toMatchObject({ readOnly: true })
      expect(asks(command, options)).toEqual([])
      renameSync(folder, `${folder}.old`)
      symlinkSync(join(options.home, '.ssh'), folder)
      const verdict = classifyCommand(command, options)
      expect(verdict.readOnly && (verdict.asks ?? []).length === 0, `${command}: ${verdict.reason}`).toBe(
        false,
      )
      rmSync(folder)
      renameSync(`${folder}.old`, folder)
    }
  })

  it('a parent folder swapped for a symlink: the folder below it leads elsewhere now', () => {
    const options = places()
    mkdirSync(join(options.home, '.ssh', 'deep'))
    writeFileSync(join(options.home, '.ssh', 'deep', 'notes.txt'), 'KEY')
    expect(asks('cat src/deep/notes.txt', options)).toEqual([])
    renameSync(join(options.workspace, 'src'), join(options.workspace, 'src.old'))
    symlinkSync(join(options.home, '.ssh'), join(options.workspace, 'src'))
    expect(asks('cat src/deep/notes.txt', options)).toContain('secret')
  })

  it('a secret file written into a folder a recursive read walked before: the next grep -r asks', () => {
    const options = places()
    expect(asks('grep -r TODO src', options)).toEqual([])
    writeFileSync(join(options.workspace, 'src', 'deep', '.env'), 'TOKEN=x')
    expect(asks('grep -r TODO src', options)).toContain('secret')
  })

  it("a secret file planted, then its folder's mtime set back as it was: the next grep -r asks", () => {
    const options = places()
    const deep = join(options.workspace, 'src', 'deep')
    const LAST_YEAR_S = Math.floor(Date.now() / 1000) - 365 * 24 * 3600
    utimesSync(deep, LAST_YEAR_S, LAST_YEAR_S)
    expect(asks('grep -rn TODO .', options)).toEqual([])
    writeFileSync(join(deep, 'prod.env'), 'TOKEN=x')
    utimesSync(deep, LAST_YEAR_S, LAST_YEAR_S)
    expect(statSync(deep).mtimeMs).toBe(LAST_YEAR_S * 1000)
    expect(asks('grep -rn TODO .', options)).toContain('secret')
  })

  it('a repository below gains a password in its config after a first verdict: the next grep -r asks', () => {
    const options = places()
    mkdirSync(join(options.workspace, 'src', 'vendored', '.git'), { recursive: true })
    const config = join(options.workspace, 'src', 'vendored', '.git', 'config')
    writeFileSync(config, '[remote "origin"]\n\turl = https://example.invalid/x.git\n')
    expect(asks('grep -r TODO src', options)).toEqual([])
    writeFileSync(config, '[remote "origin"]\n\turl = https://me:hunter2@example.invalid/x.git\n')
    expect(asks('grep -r TODO src', options)).toContain('secret')
  })
})
