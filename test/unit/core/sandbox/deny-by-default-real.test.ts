import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { EnforcedProfile } from '../../../../src/main/core/sandbox/types'
import {
  runInSandbox,
  type SandboxWorld,
  sandboxWorlds,
  TEST_PATH,
  type WorldOptions,
} from './sandbox-fixture'

/**
 * Issue 19.1 and 19.6 in real bwrap, with the product's own lists (planLayout and the sandbox
 * service): each secret is planted where a real machine has it and read from inside.
 */
const _port = createExecutionPort()
const world = sandboxWorlds()
const PROFILES: EnforcedProfile[] = ['read-only', 'workspace-write']

const run = runInSandbox

/** Runs through the sandbox service (prepare → run → the result's blocked line), as the Bash tool does. */
async function runPrepared(
  w: SandboxWorld,
  profile: EnforcedProfile,
  script: string,
  options?: WorldOptions,
) {
  const prepared = await w.service().prepare(w.prepareInput(profile, options))
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('the sandbox did not prepare a run')
  try {
    // The PATH the command gets is the one its toolchains are found from, as in the Bash tool.
    const result = await run(w, prepared.sandbox, script, options?.searchPath)
    const output = `${result.stdout}${result.stderr}`
    return { result, output, blocked: prepared.explain({ exitCode: result.exitCode, output }) }
  } finally {
    await prepared.release()
  }
}

function plantHomeSecrets(w: SandboxWorld) {
  writeFileSync(join(w.home, '.git-credentials'), 'https://me:ghp_token@github.com\n')
  mkdirSync(join(w.home, '.claude'), { recursive: true })
  writeFileSync(join(w.home, '.claude', '.credentials.json'), '{"token":"sk-ant"}\n')
  const session = join(w.home, '.config', 'chromium', 'Default', 'Session Storage')
  mkdirSync(session, { recursive: true })
  writeFileSync(join(session, '000003.log'), 'shellgate-session-key=abc\n')
  mkdirSync(join(w.home, '.config', 'gh'), { recursive: true })
  writeFileSync(join(w.home, '.config', 'gh', 'hosts.yml'), 'oauth_token: gho_x\n')
}

describe('secrets outside the workspace cannot be read, in both profiles', () => {
  for (const profile of PROFILES) {
    it(`${profile}: /etc/shadow, ~/.git-credentials, ~/.claude, a browser profile's Session Storage, SHELLGATE_HOME`, async () => {
      const w = world()
      plantHomeSecrets(w)
      const reads = [
        '/etc/shadow',
        '~/.git-credentials',
        '~/.claude/.credentials.json',
        "~/.config/chromium/Default/'Session Storage'/000003.log",
        `'${w.dataDir}/settings.json'`,
        '~/.ssh/id_ed25519',
        '~/.netrc',
      ]
      const { result, blocked } = await runPrepared(
        w,
        profile,
        reads.map((path) => `cat ${path} && echo READ`).join('; '),
      )
      expect(result.stdout).toBe('')
      expect(result.stdout).not.toMatch(/hunter2|ghp_token|sk-ant|session-key|PRIVATE/)
      // /etc/shadow is there, as an unreadable stand-in; the home secrets are not mounted at all.
      expect(result.stderr).toContain('cat: /etc/shadow: Permission denied')
      expect(result.stderr).toContain(`cat: ${w.home}/.git-credentials: No such file or directory`)
      expect(blocked).toMatch(/^blocked by the sandbox: /)
    })
  }

  it('"blocked by the sandbox: …" names the secret for each read, as the model will see it', async () => {
    const w = world()
    plantHomeSecrets(w)
    const cases: [string, RegExp][] = [
      ['cat /etc/shadow', /^blocked by the sandbox: \/etc\/shadow is hidden from sandboxed commands\./],
      ['cat ~/.git-credentials', /^blocked by the sandbox: ~\/.git-credentials is a secret, never mounted/],
      ['ls ~/.claude', /^blocked by the sandbox: ~\/.claude is a secret, never mounted/],
      [
        "cat ~/.config/chromium/Default/'Session Storage'/000003.log",
        /^blocked by the sandbox: ~\/\.config\/chromium\/Default\/Session Storage\/000003\.log is a secret, never mounted/,
      ],
      [`cat '${w.outside}/notes.txt'`, /^blocked by the sandbox: .*outside\/notes.txt is not mounted/],
    ]
    writeFileSync(join(w.outside, 'notes.txt'), 'private notes\n')
    for (const [script, line] of cases) {
      const { blocked } = await runPrepared(w, 'read-only', script)
      expect(blocked, script).toMatch(line)
    }
  })

  it('~/.gitconfig is readable when it holds no credential, and not mounted when it holds a password', async () => {
    const w = world()
    writeFileSync(join(w.home, '.gitconfig'), '[user]\n\tname = Ada\n[include]\n\tpath = ~/.gitconfig-work\n')
    writeFileSync(
      join(w.home, '.gitconfig-work'),
      '[url "https://ada:hunter2@git.example/"]\n\tinsteadOf = https://git.example/\n',
    )
    const clean = await runPrepared(
      w,
      'read-only',
      'git config --global user.name; cat ~/.gitconfig-work; echo rc=$?',
    )
    expect(clean.result.stdout).toBe('Ada\nrc=1\n')
    // The include with the password is left out: git skips an include it cannot open.
    expect(clean.result.stderr).toContain('.gitconfig-work: No such file or directory')

    writeFileSync(
      join(w.home, '.gitconfig'),
      '[user]\n\tname = Ada\n[credential]\n\thelper = store\n[http]\n\textraHeader = Authorization: Bearer tok\n',
    )
    const secret = await runPrepared(
      w,
      'workspace-write',
      'cat ~/.gitconfig; git config --global user.name; echo rc=$?',
    )
    expect(secret.result.stdout).toBe('rc=1\n')
    expect(secret.result.stdout).not.toContain('Bearer')
    expect(w.layout('read-only').leftOut).toEqual(
      expect.arrayContaining([
        { path: join(w.home, '.gitconfig'), kind: 'file', why: 'holds a credential (credential.helper)' },
      ]),
    )
  })

  it("a nested .env (any depth, inside a dot folder) is hidden from read-only commands; approved ones see the workspace's own", async () => {
    const w = world()
    const deep = join(w.workspace, 'apps', '.config', 'deploy', 'prod')
    mkdirSync(deep, { recursive: true })
    writeFileSync(join(deep, '.env.production'), 'DB_PASSWORD=hunter2\n')
    writeFileSync(join(w.workspace, 'README.md'), 'hello\n')
    // An editor's autosave of it holds the same secret.
    writeFileSync(join(deep, '#.env.production#'), 'DB_PASSWORD=hunter2\n')
    const grep = 'grep -r hunter2 . ; cat README.md'
    const readOnly = await runPrepared(w, 'read-only', grep)
    expect(readOnly.result.stdout).toBe('hello\n')
    expect(readOnly.result.stderr).toContain('apps/.config/deploy/prod/.env.production: Permission denied')
    expect(readOnly.result.stderr).toContain('apps/.config/deploy/prod/#.env.production#: Permission denied')
    expect(readOnly.blocked).toMatch(
      /^blocked by the sandbox: .*\.env\.production#? is hidden from sandboxed commands/,
    )
    const approved = await runPrepared(w, 'workspace-write', grep)
    expect(approved.result.stdout).toContain('DB_PASSWORD=hunter2')
  })

  it('a folder the person adds is readable, with its secret files and the home secrets inside it hidden in both profiles', async () => {
    const w = world()
    plantHomeSecrets(w)
    const docs = join(w.root, 'docs')
    mkdirSync(join(docs, 'sub'), { recursive: true })
    writeFileSync(join(docs, 'guide.md'), 'the guide\n')
    writeFileSync(join(docs, 'sub', 'credentials.json'), '{"key":"hunter2"}\n')
    // Adding ~/.config itself must not bring the browser profile or the gh tokens in it.
    const options = { settings: { readablePaths: [docs, '~/.config'] } }
    for (const profile of PROFILES) {
      const { result } = await runPrepared(
        w,
        profile,
        `cat '${docs}/guide.md'; cat '${docs}/sub/credentials.json'; cat ~/.config/gh/hosts.yml; ls ~/.config/chromium`,
        options,
      )
      expect(result.stdout).toBe('the guide\n')
      expect(result.stderr).toContain('credentials.json: Permission denied')
      expect(result.stderr).toMatch(/hosts.yml: (Permission denied|No such file or directory)/)
      expect(result.stderr).toContain("cannot open directory '")
    }
  })

  it('a toolchain on the PATH the command gets is found where it is; one under an unreadable home is not', async () => {
    const w = world()
    const bin = join(w.home, '.local', 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'mytool'), '#!/bin/sh\necho mytool runs\n')
    chmodSync(join(bin, 'mytool'), 0o755)
    const searchPath = `${bin}:${TEST_PATH}`
    const found = await runPrepared(w, 'read-only', 'mytool', { searchPath })
    expect(found.result.stdout).toBe('mytool runs\n')
    const absent = await runPrepared(w, 'read-only', `'${bin}/mytool'; echo rc=$?`)
    expect(absent.result.stdout).toBe('rc=127\n')
  })

  it("a toolchain's own config with a token (an nvm node's etc/npmrc, a prefix's) reads empty, and its secret files are hidden", async () => {
    const w = world()
    const node = join(w.home, '.nvm', 'versions', 'node', 'v20.0.0')
    const tool = join(w.root, 'opt-tool')
    for (const prefix of [node, tool]) {
      mkdirSync(join(prefix, 'bin'), { recursive: true })
      mkdirSync(join(prefix, 'etc'), { recursive: true })
    }
    writeFileSync(join(node, 'etc', 'npmrc'), '//registry.npmjs.org/:_authToken=npm_SECRETTOKEN\n')
    writeFileSync(join(tool, 'etc', 'npmrc'), 'prefix=/opt/tool\n')
    writeFileSync(
      join(tool, 'etc', 'pip.conf'),
      '[global]\nindex-url = https://me:hunter2@pypi.example.test/simple\n',
    )
    writeFileSync(join(tool, '.env'), 'API_KEY=hunter2\n')
    // A virtualenv's own pip.conf (at its prefix), a URL on a continuation line, a credential kept
    // in a file a gitconfig includes: each hidden too (second red-team round).
    writeFileSync(
      join(tool, 'pip.conf'),
      '[global]\nindex-url = https://alice:hunter2@pypi.example.test/simple\n',
    )
    writeFileSync(
      join(node, 'etc', 'pip.conf'),
      '[global]\nextra-index-url =\n    https://bob:hunter2@pypi.example.test/simple\n',
    )
    writeFileSync(join(node, 'etc', 'gitconfig'), '[include]\n\tpath = gitconfig.local\n')
    writeFileSync(
      join(node, 'etc', 'gitconfig.local'),
      '[http]\n\textraHeader = Authorization: Bearer hunter2\n',
    )
    const searchPath = `${join(node, 'bin')}:${join(tool, 'bin')}:${TEST_PATH}`
    const script = `cat '${node}/etc/npmrc' '${tool}/etc/pip.conf' '${tool}/.env' '${tool}/pip.conf' '${node}/etc/pip.conf' '${node}/etc/gitconfig' '${node}/etc/gitconfig.local'; echo; cat '${tool}/etc/npmrc'`
    const readOnly = await runPrepared(w, 'read-only', script, { searchPath })
    expect(readOnly.output).not.toMatch(/SECRETTOKEN|hunter2/)
    expect(readOnly.result.stderr).toContain(`${tool}/.env: Permission denied`)
    // A config without a credential is the tool's own setting: left as it is.
    expect(readOnly.result.stdout).toContain('prefix=/opt/tool')
    const approved = await runPrepared(w, 'workspace-write', script, { searchPath })
    expect(approved.output).not.toMatch(/SECRETTOKEN|hunter2/)
    const layout = w.layout('read-only', { searchPath })
    expect(layout.hidden).toEqual(
      expect.arrayContaining([
        {
          path: join(node, 'etc', 'npmrc'),
          kind: 'file',
          readsEmpty: true,
          why: 'holds a credential (//registry.npmjs.org/:_authToken)',
        },
        { path: join(tool, '.env'), kind: 'file', why: 'a secret file name in a toolchain or system folder' },
      ]),
    )
  })
})
