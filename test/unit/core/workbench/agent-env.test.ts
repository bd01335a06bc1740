import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SettingsError } from '../../../../src/main/core/settings/settings-error'
import { runCliCaptured } from '../../cli/run-cli'
import { type CoreHarness, startCore } from './core-harness'

let harness: CoreHarness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

const SECRETS = {
  GH_TOKEN: 'gh-value',
  AWS_SECRET_ACCESS_KEY: 'aws-value',
  OPENAI_API_KEY: 'openai-value',
  KEYBOARD_LAYOUT: 'us',
}

describe('what an agent command sees of the environment', () => {
  it('withheld variables are absent from the child, and passed-through ones are present', async () => {
    harness = await startCore({ env: SECRETS })
    const { core, sessionId } = harness
    await core.settings.updateUser({
      environment: { passThrough: ['GH_TOKEN'] },
      permissions: { mode: 'yolo' },
    })
    const call = await core.bash.run(sessionId, {
      command:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions
        'printf "%s|%s|%s|%s" "${GH_TOKEN-unset}" "${AWS_SECRET_ACCESS_KEY-unset}" "${OPENAI_API_KEY-unset}" "$KEYBOARD_LAYOUT"',
    })
    expect(call.status).toBe('completed')
    expect(call.content).toBe('gh-value|unset|unset|us')
    const report = core.environment.report()
    expect(report.withheldKeys).toEqual(['AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY'])
    expect(report.passedThroughKeys).toEqual(['GH_TOKEN'])

    await core.settings.updateUser({ environment: { passThrough: [] } })
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    const again = await core.bash.run(sessionId, { command: 'printf "%s" "${GH_TOKEN-unset}"' })
    expect(again.content).toBe('unset')
    expect(core.environment.report().withheldKeys).toContain('GH_TOKEN')
  })

  it('refuses a pass-through entry that is not a variable name, naming the field, and saves nothing', async () => {
    harness = await startCore()
    const { core } = harness
    const bad = core.settings.updateUser({ environment: { passThrough: ['GH_TOKEN', 'BASH_FUNC_ls%%'] } })
    await expect(bad).rejects.toBeInstanceOf(SettingsError)
    await expect(bad).rejects.toThrow(/environment\.passThrough\.1.*variable name/)
    expect(core.settings.user().environment.passThrough).toEqual([])
  })

  it('a read-only command that runs without asking gets no GIT_CONFIG_* from the parent; an approved-by-mode one does', async () => {
    harness = await startCore({
      env: {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'core.fsmonitor',
        GIT_CONFIG_VALUE_0: 'touch fsmonitor-ran; false',
      },
    })
    const { core, sessionId, workspace } = harness
    spawnSync('git', ['init', '-q', workspace])
    writeFileSync(join(workspace, 'f'), 'x\n')
    const readOnly = await core.bash.run(sessionId, { command: 'git status --porcelain' })
    expect(readOnly.decision?.decidedBy).toBe('mode.build.readOnly')
    expect(readOnly.status).toBe('completed')
    expect(readOnly.content).toContain('?? f')
    expect(existsSync(join(workspace, 'fsmonitor-ran'))).toBe(false)

    // The same git under yolo, in a command that is not read-only: the user's env is kept as is.
    await core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const writer = await core.bash.run(sessionId, { command: 'git status --porcelain; touch wrote' })
    expect(writer.status).toBe('completed')
    expect(existsSync(join(workspace, 'fsmonitor-ran'))).toBe(true)
  })

  it('an exported bash function in the entry environment reaches no command, approved or not, nor their children (issue 24.2)', async () => {
    // bash defines BASH_FUNC_ls%% as a function named ls in every bash it starts.
    const planted = {
      'BASH_FUNC_ls%%': '() {  echo planted-ls; }',
      'BASH_FUNC_cat%%': '() {  echo planted-cat; }',
    }
    harness = await startCore({ env: planted })
    const { core, sessionId, workspace } = harness
    writeFileSync(join(workspace, 'real-file'), 'real\n')
    const probe = 'ls real-file; bash -c "cat real-file; ls real-file"; env | grep -c "^BASH_FUNC_" || true'
    // Read-only? No: `bash -c` is not. The mode decides: yolo runs it as an approved command.
    await core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const approved = await core.bash.run(sessionId, { command: probe })
    expect(approved.status).toBe('completed')
    expect(approved.content).toBe('real-file\nreal\nreal-file\n0')
    await core.settings.updateUser({ permissions: { mode: 'build' } })
    const readOnly = await core.bash.run(sessionId, { command: 'ls real-file' })
    expect(readOnly.decision?.decidedBy).toBe('mode.build.readOnly')
    expect(readOnly.content).toBe('real-file')
  })

  it('Settings → Environment (env.report) and `shellgate env --json` list the same names', async () => {
    harness = await startCore({
      env: { ...SECRETS, NODE_OPTIONS: '--no-warnings', HTTPS_PROXY: 'http://p:1' },
    })
    const { core, home } = harness
    await core.settings.updateUser({ environment: { passThrough: ['GH_TOKEN'] } })
    mkdirSync(join(home, 'cli-cwd'))
    const cli = await runCliCaptured(['env', '--json'], {
      env: {
        ...SECRETS,
        NODE_OPTIONS: '--no-warnings',
        HTTPS_PROXY: 'http://p:1',
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        SHELL: '/no/shell',
        SHELLGATE_HOME: home,
      },
      cwd: join(home, 'cli-cwd'),
    })
    expect(cli.code).toBe(0)
    const printed = JSON.parse(cli.stdout)
    const report = core.environment.report()
    expect(report.withheldKeys).toEqual(['AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY'])
    expect(report.autoRunRemovedKeys).toEqual(['NODE_OPTIONS'])
    expect(report.entry.sealedKeys).toEqual(['HTTPS_PROXY'])
    for (const field of ['withheldKeys', 'passedThroughKeys', 'autoRunRemovedKeys', 'entry'] as const)
      expect(printed[field]).toEqual(report[field])
    for (const value of Object.values(SECRETS)) if (value !== 'us') expect(cli.stdout).not.toContain(value)
  })
})
