import { execFileSync } from 'node:child_process'
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * A hard link to a secret, made in the workspace (issue 21's left-over class): the name says
 * nothing, the path is inside, and the file is the key. Each command is first run for real.
 */
const root = mkdtempSync(join(tmpdir(), 'sg-hard-links-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const MARKER = 'PRIVATE-KEY-51d7'
const home = join(root, 'home')
const shellgateHome = join(home, '.shellgate')
const ws = join(root, 'ws')
const store = join(root, 'pnpm-store')
for (const dir of [join(home, '.ssh'), shellgateHome, join(ws, 'node_modules', 'lib'), store]) {
  mkdirSync(dir, { recursive: true })
}
function file(at: string, text: string, mode: number): string {
  writeFileSync(at, text)
  chmodSync(at, mode)
  return at
}
linkSync(file(join(home, '.ssh', 'id_ed25519'), `${MARKER}\n`, 0o600), join(ws, 'notes.txt'))
linkSync(
  file(join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=${MARKER}\n`, 0o644),
  join(ws, 'config.txt'),
)
linkSync(file(join(shellgateHome, 'hub.json'), `{"key":"${MARKER}"}\n`, 0o644), join(ws, 'state.json'))
// pnpm: every package file is a hard link into its store, readable by all.
linkSync(
  file(join(store, 'index.js'), 'module.exports = 1\n', 0o644),
  join(ws, 'node_modules', 'lib', 'index.js'),
)
file(join(ws, 'private.txt'), 'mine alone\n', 0o600)

function realRun(command: string): string {
  return execFileSync('bash', ['-c', command], {
    cwd: ws,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home },
  })
}
const judge = (command: string) => classifyCommand(command, { cwd: ws, workspace: ws, home, shellgateHome })
const asks = (command: string) => (judge(command).asks ?? []).map((ask) => ask.reason).join('\n')

describe('a hard link in the workspace to a secret', () => {
  it.each([
    ['cat notes.txt', 'only its owner may read'],
    ['head -c 64 ./notes.txt', 'only its owner may read'],
    ['grep -H . node_modules/../notes.txt', 'only its owner may read'],
    ['cat config.txt', 'secrets location (~/.npmrc)'],
    ['tail -n 1 state.json', 'secrets location (~/.shellgate/hub.json)'],
  ])('%s reads the secret for real, and asks first: %s', (command, reason) => {
    expect(realRun(command)).toContain(MARKER)
    expect(judge(command).readOnly).toBe(true)
    expect(asks(command), asks(command)).toContain(reason)
  })

  it('names the link in the question, and says it is one', () => {
    expect(asks('cat notes.txt')).toBe(
      `reads a hard link to a file only its owner may read (it may be a secret under another name): ${join(ws, 'notes.txt')}`,
    )
  })

  it('a pnpm-style hard link readable by all, and a private file with one name, run at once', () => {
    expect(realRun('cat node_modules/lib/index.js private.txt')).toContain('module.exports')
    for (const command of [
      'cat node_modules/lib/index.js',
      'head private.txt',
      'wc -l node_modules/lib/index.js',
    ]) {
      const verdict = judge(command)
      expect(verdict.readOnly, command).toBe(true)
      expect(verdict.asks ?? [], command).toEqual([])
    }
  })
})
