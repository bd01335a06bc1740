import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { unsandboxedVerdict } from '../../../../src/main/core/bash/unsandboxed-verdict'

// A plain folder (no repository): the read-only verdict is the product's own, then made stricter.
const workspace = mkdtempSync(join(tmpdir(), 'sg-unsandboxed-'))
writeFileSync(join(workspace, 'notes.txt'), 'hello\n')
afterAll(() => rmSync(workspace, { recursive: true, force: true }))

function judge(command: string) {
  const verdict = classifyCommand(command, { cwd: workspace, workspace, platform: 'linux' })
  return { sandboxed: verdict, unsandboxed: unsandboxedVerdict(verdict, workspace) }
}

describe('the verdict for a command the agent runs in its own shell (issue 20.2)', () => {
  // Each is read-only in the sandbox (it hides .env files, drops credentials, has its own pid
  // namespace, gives no terminal), so the sandboxed verdict runs it at once; unsandboxed it asks.
  it.each([
    ['grep -rn sk_live .', /whole tree/],
    ['grep -R --include=*.ts TODO src', /whole tree|glob/],
    ['grep -d recurse x .', /whole tree/],
    ['rg sk_live', /whole tree/],
    ['echo "\x24{AWS_SECRET_ACCESS_KEY}"', /AWS_SECRET_ACCESS_KEY/],
    ['echo $GITHUB_TOKEN', /GITHUB_TOKEN/],
    ['echo "$(echo $OPENAI_API_KEY)"', /OPENAI_API_KEY/],
    ['cat /proc/cpuinfo', /\/proc/],
    ['head -c 100 /proc/1/cmdline', /\/proc/],
    ['cat .env', /\.env/],
    ['wc -c .env.local', /\.env\.local/],
    ['git log --oneline -3', /pager/],
    ['git -c color.ui=never show HEAD', /pager/],
    ['journalctl -n 5', /pages/],
    ['systemctl status ssh', /pages/],
    ['ps aux', /process/],
    ['cat -- *.txt', /glob/],
  ])('%s asks unsandboxed', (command, why) => {
    const { sandboxed, unsandboxed } = judge(command)
    expect(unsandboxed.readOnly).toBe(false)
    // What the sandboxed verdict already asks about (as the verdict grows) is left as it is.
    if (!sandboxed.readOnly) return expect(unsandboxed).toBe(sandboxed)
    expect(unsandboxed.reason).toMatch(why)
    expect(unsandboxed.reason).toContain("the agent's own shell, unsandboxed")
    expect(unsandboxed.parts.every((part) => !part.readOnly)).toBe(true)
  })

  it.each([
    'ls -la',
    'cat notes.txt',
    'echo "$HOME" $PWD',
    'git --no-pager log --oneline -3',
    'GIT_PAGER=cat git status',
    'journalctl --no-pager -n 5',
    'ls *.txt',
    'wc -l notes.txt && pwd',
  ])('%s stays read-only unsandboxed', (command) => {
    const { sandboxed, unsandboxed } = judge(command)
    if (!sandboxed.readOnly) return expect(unsandboxed).toBe(sandboxed)
    expect(unsandboxed.readOnly, unsandboxed.reason).toBe(true)
  })

  it.each([
    'touch x',
    'printenv',
    'cat /proc/self/environ',
    'less notes.txt',
    'cat *',
    'jq -n env.GITHUB_TOKEN',
  ])('%s asks unsandboxed; what already asks is left as it is', (command) => {
    const { sandboxed, unsandboxed } = judge(command)
    expect(unsandboxed.readOnly).toBe(false)
    if (!sandboxed.readOnly) expect(unsandboxed).toBe(sandboxed)
  })
})
