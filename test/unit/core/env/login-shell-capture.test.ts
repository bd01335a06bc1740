import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { readSealedEnv } from '../../../../src/main/core/env/sanitize-entry'
import { mergeLoginShellEnv } from '../../../../src/main/core/env/login-env-merge'
import {
  captureLoginShellEnv,
  forgetLoginShellEnvCaptures,
} from '../../../../src/main/core/env/login-shell-capture'
import {
  type FakeHome,
  makeFakeHome,
  PROFILE_SOURCING_BASHRC,
  waitUntilGone,
} from '../../../fixtures/shell/fake-home'

let home: FakeHome | undefined
afterEach(() => {
  home?.remove()
  home = undefined
  forgetLoginShellEnvCaptures()
})

const baseEnv = (h: FakeHome, shell: string) => ({
  HOME: h.home,
  PATH: '/usr/bin:/bin',
  SHELL: shell,
  USER: 'tester',
})

describe('captureLoginShellEnv', () => {
  it('adopts PATH and allowlisted variables from bash rc files, seals proxies and keeps secrets out', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc': [
        'export PATH="$HOME/tools/bin:$PATH"',
        'export JAVA_HOME=/opt/jdk',
        'export KUBECONFIG="$HOME/.kube/cfg"',
        'export AWS_SECRET_ACCESS_KEY=topsecret',
        'export UV_INDEX_PRIVATE_PASSWORD=alsosecret',
        'export HTTPS_PROXY=http://u:pw@proxy.corp:3128',
        'export RANDOM_THING=1',
        '',
      ].join('\n'),
    })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/bin/bash'), platform: 'linux' })
    expect(capture.report.status).toBe('captured')
    expect(capture.report.shell).toBe('/bin/bash')
    expect(capture.env.PATH?.split(':')[0]).toBe(home.path('tools', 'bin'))
    expect(capture.env.JAVA_HOME).toBe('/opt/jdk')
    expect(capture.env.KUBECONFIG).toBe(home.path('.kube', 'cfg'))
    for (const secret of [
      'AWS_SECRET_ACCESS_KEY',
      'UV_INDEX_PRIVATE_PASSWORD',
      'RANDOM_THING',
      'TERM',
      'CI',
    ]) {
      expect(capture.env[secret]).toBeUndefined()
    }
    expect(capture.sealed).toEqual({ HTTPS_PROXY: 'http://u:pw@proxy.corp:3128' })
    expect(capture.report.keys).toEqual(expect.arrayContaining(['JAVA_HOME', 'KUBECONFIG', 'PATH', 'USER']))
    expect(capture.report.sealedKeys).toEqual(['HTTPS_PROXY'])
    // The report is what the UI and `env --json` show: names only.
    const shown = JSON.stringify(capture.report)
    for (const value of ['topsecret', 'pw@', '/opt/jdk', 'tools/bin']) expect(shown).not.toContain(value)

    const runtime = mergeLoginShellEnv({ PATH: '/usr/bin:/app/only', HOME: home.home }, capture, 'linux')
    expect(runtime.PATH?.startsWith(`${home.path('tools', 'bin')}:`)).toBe(true)
    expect(runtime.PATH?.endsWith(':/app/only')).toBe(true)
    expect(runtime.HTTPS_PROXY).toBeUndefined()
    expect(readSealedEnv(runtime)).toEqual({ HTTPS_PROXY: 'http://u:pw@proxy.corp:3128' })
  })

  it("does not adopt the probe's own quieting variables, only what the user's files set", async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc': 'export HOMEBREW_PREFIX="$HOME/brew"\n',
    })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/bin/bash'), platform: 'linux' })
    expect(capture.report.status).toBe('captured')
    expect(capture.env.HOMEBREW_PREFIX).toBe(home.path('brew'))
    expect(capture.env).not.toHaveProperty('HOMEBREW_NO_AUTO_UPDATE')
    expect(capture.report.keys).not.toContain('HOMEBREW_NO_AUTO_UPDATE')
  })

  it('captures from zsh with -ilc, reading ~/.zshrc', async () => {
    home = makeFakeHome({ '.zshrc': 'export PATH="$HOME/zbin:$PATH"\nexport GOPATH="$HOME/go"\n' })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/usr/bin/zsh'), platform: 'linux' })
    expect(capture.report).toMatchObject({ status: 'captured', shell: '/usr/bin/zsh' })
    expect(capture.env.PATH?.split(':')).toContain(home.path('zbin'))
    expect(capture.env.GOPATH).toBe(home.path('go'))
  })

  it('parses the markers through junk output, a question on stdin and a logout message', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bash_logout': 'echo bye from logout\n',
      '.bashrc': [
        'echo "Welcome! fortune of the day"',
        'printf "__SHELLGATE_ENV_START_fake__ NOT=real\\0"',
        'printf "Update now? [y/N] "; read -r answer; echo "answered [$answer]"',
        'export AWS_REGION=eu-west-1',
        '',
      ].join('\n'),
    })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/bin/bash'), platform: 'linux' })
    expect(capture.report.status).toBe('captured')
    expect(capture.env.AWS_REGION).toBe('eu-west-1')
    expect(capture.env.NOT).toBeUndefined()
  })

  it('gives up at the timeout on an rc that sleeps 30 s, kills the whole group and patches PATH', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc': 'echo $$ > "$HOME/shell.pid"\nsleep 30 &\necho $! > "$HOME/sleep.pid"\nwait\n',
    })
    home.write('.local/bin/.keep', '')
    const env = baseEnv(home, '/bin/bash')
    const capture = await captureLoginShellEnv({ env, platform: 'linux', timeoutMs: 1_000 })
    expect(capture.report.status).toBe('timed_out')
    expect(capture.report.messages.join('\n')).toMatch(/did not finish its startup files within 1 s/)
    expect(capture.report.pathPatched).toBe(true)
    expect(capture.env.PATH?.split(':')[0]).toBe(home.path('.local', 'bin'))
    const pids = ['shell.pid', 'sleep.pid'].map((f) => Number(readFileSync(home!.path(f), 'utf8')))
    const survivors = await waitUntilGone(pids)
    expect(survivors.map(stat)).toEqual([])
    // Cached: later commands do not pay for the rc again.
    expect(await captureLoginShellEnv({ env, platform: 'linux', timeoutMs: 1_000 })).toBe(capture)
  })

  it('uses the 4 s default timeout from the spec', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': 'sleep 30\n' })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/bin/bash'), platform: 'linux' })
    expect(capture.report.status).toBe('timed_out')
    expect(capture.report.messages[0]).toContain('within 4 s')
  })

  it('reports an rc that exits non-zero and falls back to a patched PATH', async () => {
    home = makeFakeHome({ '.profile': PROFILE_SOURCING_BASHRC, '.bashrc': 'echo "broken rc" >&2\nexit 3\n' })
    const capture = await captureLoginShellEnv({ env: baseEnv(home, '/bin/bash'), platform: 'linux' })
    expect(capture.report.status).toBe('failed')
    expect(capture.report.messages.join('\n')).toMatch(
      /\/bin\/bash exited with 3 before printing its environment: broken rc/,
    )
    expect(capture.env).toEqual({ PATH: expect.stringContaining('/usr/bin') })
  })

  it('says so when $SHELL does not exist and uses the next shell', async () => {
    home = makeFakeHome({ '.profile': 'export GOROOT=/opt/go\n' })
    const capture = await captureLoginShellEnv({
      env: baseEnv(home, '/nonexistent/fish'),
      platform: 'linux',
      shells: ['/nonexistent/fish', '/bin/bash'],
    })
    expect(capture.report.status).toBe('captured')
    expect(capture.report.shell).toBe('/bin/bash')
    expect(capture.report.messages).toEqual(['$SHELL /nonexistent/fish is not an executable file'])
    expect(capture.env.GOROOT).toBe('/opt/go')
  })

  it('is skipped on Windows without running anything', async () => {
    const capture = await captureLoginShellEnv({ env: { SHELL: '/bin/false' }, platform: 'win32' })
    expect(capture.report).toMatchObject({ status: 'skipped', shell: null, keys: [] })
  })
})

function stat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return 'gone'
  }
}
