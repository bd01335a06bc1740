import { spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ClassifyOptions, classifyCommand } from '../../../../../src/main/core/bash/classify'
import { decideBashPermission, loadCommandRegistry } from '../../../../../src/main/core/permissions'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

const registry = loadCommandRegistry()

describe('class 6: secrets and places', () => {
  const tempDir = tempDirsRemovedAfterEach()

  /** A workspace and a home of our own, so ~/.ssh is a folder this test made. */
  function places(): ClassifyOptions & { workspace: string; home: string } {
    const root = tempDir()
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(join(workspace, 'src'), { recursive: true })
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
    writeFileSync(join(workspace, 'src', 'a.ts'), 'x')
    return { cwd: workspace, workspace, home, shellgateHome: join(home, '.shellgate'), platform: 'linux' }
  }

  function decide(command: string, options: ClassifyOptions, readsOutsideWorkspace?: 'ask' | 'allow') {
    const verdict = classifyCommand(command, options)
    return decideBashPermission({ verdict, mode: 'build', ruleSets: [], registry, readsOutsideWorkspace })
  }

  it('cat /proc/self/environ prints the environment for real, and is not read-only', () => {
    const run = spawnSync('bash', ['-c', 'cat /proc/self/environ'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TOKEN: 'secret-token-value' },
    })
    expect(run.stdout).toContain('TOKEN=secret-token-value')
    const verdict = classifyCommand('cat /proc/self/environ', places())
    expect(verdict).toMatchObject({
      readOnly: false,
      reason: "/proc/self/environ is a process's environment, which holds secrets",
    })
  })

  it('every spelling of a process environment is refused, through symlinks too (seed 6, 200)', () => {
    const options = places()
    symlinkSync('/proc/self/environ', join(options.workspace, 'innocent.txt'))
    symlinkSync('/proc/self', join(options.workspace, 'proc-link'))
    const PATHS = [
      '/proc/self/environ',
      '/proc/1/environ',
      '/proc/thread-self/environ',
      `/proc/${process.pid}/task/${process.pid}/environ`,
      '/proc//self/environ',
      '/proc/./self/environ',
      '/proc/self/root/proc/self/environ',
      '/proc/self/../self/environ',
      '/proc/self/cwd/../../../proc/self/environ',
      'innocent.txt',
      'proc-link/environ',
      './proc-link/../proc-link/environ',
      '/proc/self',
      '/proc',
      '/proc/1/task',
    ]
    const COMMANDS = [
      'cat',
      'head -c 100',
      'tail -n 1',
      'grep -a x',
      'sed -n p',
      'xxd',
      'od -c',
      'strings',
      'wc -c',
      'sort',
      'cut -c1-9',
      'cat <',
      'grep -r x',
      'tr -d x <',
      'less',
    ]
    const random = seededRandom(6)
    for (let index = 0; index < 200; index += 1) {
      const command = `${pick(random, COMMANDS)} ${pick(random, PATHS)}`
      expect(classifyCommand(command, options).readOnly, command).toBe(false)
    }
  })

  it('docker inspect templates that can reach the environment are refused (each one)', () => {
    const options = places()
    const reaching = [
      '{{json $}}',
      '{{index $ "Config"}}',
      '{{$.Config}}',
      '{{ . }}',
      '{{json .}}',
      '{{println .}}',
      '{{printf "%v" .}}',
      '{{with .Config}}{{.}}{{end}}',
      '{{.Config.Env}}',
      '{{ json .Config }}',
      '{{$x := .}}{{$x}}',
      '{{/* c */}}',
      '{{- json . -}}',
      '{{range .Config.Env}}{{.}}{{end}}',
      '{{.Config',
      'plain text',
      '{{json .ContainerConfig}}',
      '{{.config.env}}',
      '{{ (index .Config "Env") }}',
      '{{.Config | json}}',
    ]
    for (const template of reaching) {
      const verdict = classifyCommand(`docker inspect -f '${template}' web`, options)
      expect(verdict.readOnly, template).toBe(false)
    }
    for (const template of [
      '{{.State.Status}}',
      '{{json .NetworkSettings.Ports}}',
      '{{- .Name -}}',
      'id={{.Id}}',
    ]) {
      expect(classifyCommand(`docker inspect -f '${template}' web`, options).readOnly, template).toBe(true)
    }
  })

  it('a secrets location asks, with the path in plain words, even through a symlink in the workspace', () => {
    const options = places()
    symlinkSync(join(options.home, '.ssh', 'id_rsa'), join(options.workspace, 'notes.txt'))
    for (const [command, reason] of [
      ['cat ~/.ssh/id_rsa', 'reads a secrets location: ~/.ssh/id_rsa'],
      ['cat notes.txt', 'reads a secrets location: ~/.ssh/id_rsa'],
      ['grep -r token ~', 'reads a folder that holds secrets: ~'],
      ['cat .env', `reads a secrets location: ${join(options.workspace, '.env')}`],
      ['head src/.env.local', `reads a secrets location: ${join(options.workspace, 'src/.env.local')}`],
      ['ls ~/.aws', 'reads a secrets location: ~/.aws'],
      ['cat ~/.config/gh/hosts.yml', 'reads a secrets location: ~/.config/gh/hosts.yml'],
      ['ls ~/.gnupg', 'reads a secrets location: ~/.gnupg'],
      ['cat ~/.shellgate/settings.json', 'reads a secrets location: ~/.shellgate/settings.json'],
    ] as const) {
      const verdict = classifyCommand(command, options)
      expect(verdict.readOnly, command).toBe(true)
      expect(verdict.asks?.[0]).toMatchObject({ kind: 'secret', reason })
      // The setting for outside reads does not let a secret through.
      expect(decide(command, options, 'allow'), command).toMatchObject({
        outcome: 'ask',
        reason: `Needs your approval: it only reads, but it ${reason}.`,
        basis: 'readOnly.asksFirst',
      })
    }
  })

  it('reads outside the workspace ask by default, run when the setting allows, and listed folders do not ask', () => {
    const options = places()
    expect(decide('cat /etc/passwd', options)).toMatchObject({
      outcome: 'ask',
      reason: 'Needs your approval: it only reads, but it reads outside the workspace: /etc/passwd.',
    })
    expect(decide('ls ..', options).outcome).toBe('ask')
    expect(decide('cat < /etc/hostname', options).reason).toContain(
      'reads outside the workspace: /etc/hostname',
    )
    expect(decide('cat /etc/passwd', options, 'allow')).toMatchObject({
      outcome: 'allow',
      basis: 'mode.build.readOnly',
    })
    expect(decide('cat /etc/passwd', { ...options, readableFolders: ['/etc'] }).outcome).toBe('allow')
    // From a cwd outside the workspace, a relative read is outside too.
    expect(decide('cat a.ts', { ...options, cwd: '/' }).reason).toContain(
      'reads outside the workspace: /a.ts',
    )
  })

  it('reads inside the workspace, and words that are not files, run without asking', () => {
    const options = places()
    for (const command of [
      'cat src/a.ts',
      'ls',
      'grep -rn /api/v1 src',
      'echo /etc/passwd',
      "sed -n '/etc/p' src/a.ts",
      'cat /dev/null',
      'wc -l < src/a.ts',
    ]) {
      const decision = decide(command, options)
      expect(decision.outcome, `${command}: ${decision.reason}`).toBe('allow')
    }
  })
})
