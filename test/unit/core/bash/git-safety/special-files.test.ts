import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkGitRuntimeSafety } from '../../../../../src/main/core/bash/git-safety/git-runtime-safety'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { writeLinkedWorktree, writeRepository } from './repository-fixtures'

const tempDir = tempDirsRemovedAfterEach()

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file])
}

const CLASSIFY_MODULE = resolve('src/main/core/bash/classify.ts')
const SAFETY_MODULE = resolve('src/main/core/bash/git-safety/git-runtime-safety.ts')
/** Far longer than classify takes; only a blocked read reaches it. */
const CHILD_TIMEOUT_MS = 20_000

/**
 * A FIFO would block a plain read forever and /dev/zero would fill memory, and a blocked synchronous
 * read cannot be interrupted in-process: classify runs in a child that is killed after a timeout,
 * so a regression fails this test instead of hanging the suite. Git must be refused, the file named.
 */
function expectRefusedPromptly(cwd: string, reason: string): void {
  const script = `
    const { classifyCommand } = await import(${JSON.stringify(pathToFileURL(CLASSIFY_MODULE).href)})
    const { checkGitRuntimeSafety } = await import(${JSON.stringify(pathToFileURL(SAFETY_MODULE).href)})
    const cwd = ${JSON.stringify(cwd)}
    const verdict = classifyCommand('git status', { cwd, platform: 'linux' })
    process.stdout.write(JSON.stringify({ safety: checkGitRuntimeSafety(cwd), verdict }))`
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  })
  const { safety, verdict } = JSON.parse(output)
  expect(safety).toEqual({ safe: false, reason: expect.stringContaining(reason) })
  expect({ readOnly: verdict.readOnly, reason: verdict.reason }).toEqual({
    readOnly: false,
    reason: expect.stringContaining(reason),
  })
}

describe('files in a repository that are not regular files', { timeout: 30_000 }, () => {
  it('an [include] path that is a FIFO', () => {
    const root = tempDir()
    mkfifo(join(root, 'fifo'))
    writeRepository(join(root, 'repo'), `[include]\n\tpath = ${join(root, 'fifo')}\n`)
    expectRefusedPromptly(join(root, 'repo'), `${join(root, 'fifo')} is not a regular file (a FIFO)`)
  })

  it('an [include] path that is /dev/zero', () => {
    const root = writeRepository(join(tempDir(), 'repo'), '[include]\n\tpath = /dev/zero\n')
    expectRefusedPromptly(root, '/dev/zero is not a regular file (a character device)')
  })

  it('an [include] symlink to /dev/zero', () => {
    const dir = tempDir()
    symlinkSync('/dev/zero', join(dir, 'zero.conf'))
    const root = writeRepository(join(dir, 'repo'), `[include]\n\tpath = ${join(dir, 'zero.conf')}\n`)
    expectRefusedPromptly(root, 'zero.conf is not a regular file (a character device)')
  })

  it('.git/config itself a FIFO', () => {
    const root = writeRepository(join(tempDir(), 'repo'))
    rmSync(join(root, '.git', 'config'))
    mkfifo(join(root, '.git', 'config'))
    expectRefusedPromptly(root, 'config is not a regular file (a FIFO)')
  })

  it('the index a FIFO', () => {
    const root = writeRepository(join(tempDir(), 'repo'))
    mkfifo(join(root, '.git', 'index'))
    expectRefusedPromptly(root, 'index is not a regular file (a FIFO)')
  })

  it('the index a symlink to /dev/zero', () => {
    const root = writeRepository(join(tempDir(), 'repo'))
    symlinkSync('/dev/zero', join(root, '.git', 'index'))
    expectRefusedPromptly(root, 'index is a symlink where git writes a plain file')
  })

  it("a linked worktree's commondir a FIFO", () => {
    const dir = tempDir()
    writeRepository(join(dir, 'main'))
    const worktree = writeLinkedWorktree(join(dir, 'main'), join(dir, 'wt'))
    const commondir = join(dir, 'main', '.git', 'worktrees', 'wt', 'commondir')
    rmSync(commondir)
    mkfifo(commondir)
    expectRefusedPromptly(worktree, 'commondir is not a regular file (a FIFO)')
  })

  it("a submodule's .git a FIFO, reached through the index", () => {
    const root = tempDir()
    execFileSync('git', ['init', '-q', root])
    const sub = join(root, 'sub')
    execFileSync('git', ['init', '-q', sub])
    execFileSync('git', [
      '-C',
      sub,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    ])
    execFileSync('git', ['-C', root, 'add', 'sub'], { stdio: 'ignore' })
    rmSync(join(sub, '.git'), { recursive: true })
    mkfifo(join(sub, '.git'))
    expectRefusedPromptly(root, '.git is not a regular file (a FIFO)')
  })

  it('a regular include still reads normally', () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'conf'))
    writeFileSync(join(dir, 'conf', 'extra'), '[user]\n\tname = x\n')
    const root = writeRepository(join(dir, 'repo'), `[include]\n\tpath = ${join(dir, 'conf', 'extra')}\n`)
    expect(checkGitRuntimeSafety(root).safe).toBe(true)
  })
})
