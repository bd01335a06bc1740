import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { claudeCodeHook } from '../../../src/main/mcp/hooks/claude-code-hook'
import { codexHook } from '../../../src/main/mcp/hooks/codex-hook'
import { geminiHook } from '../../../src/main/mcp/hooks/gemini-hook'
import { shellgateBinDir } from './shellgate-on-path'
import { runCliCaptured } from './run-cli'

let binDir: string
beforeAll(async () => {
  binDir = await shellgateBinDir()
})
afterAll(() => rm(binDir, { recursive: true, force: true }))

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sg-connect-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

const connect = (argv: string[], env: Record<string, string> = {}) =>
  runCliCaptured(['connect', ...argv], {
    env: { HOME: home, PATH: `${binDir}:${process.env.PATH ?? ''}`, ...env },
    cwd: home,
  })
const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

describe('shellgate connect', () => {
  it('prints the MCP entry, the hook and the permission rule for Claude Code', async () => {
    const { code, stdout } = await connect(['claude-code'])
    expect(code).toBe(0)
    expect(stdout).toContain('claude mcp add --scope user shellgate -- shellgate mcp')
    expect(stdout).toContain('"mcp__shellgate__*"')
    expect(stdout).toContain('shellgate hook claude-code')
    expect(stdout).toContain(join(home, '.claude', 'settings.json'))
  })

  it('--write for Claude Code: keeps what is there, backs it up, and a second run changes nothing', async () => {
    const configDir = join(home, 'claude-config')
    await mkdir(configDir)
    await writeFile(
      join(configDir, 'settings.json'),
      JSON.stringify({ theme: 'dark', permissions: { allow: ['Read'] } }),
    )
    const env = { CLAUDE_CONFIG_DIR: configDir }
    const first = await connect(['claude-code', '--write'], env)
    expect(first.code).toBe(0)
    const settings = await json(join(configDir, 'settings.json'))
    expect(settings).toMatchObject({ theme: 'dark', permissions: { allow: ['Read', 'mcp__shellgate__*'] } })
    expect(settings.hooks.PreToolUse).toEqual([
      {
        matcher: claudeCodeHook.matcher,
        hooks: [{ type: 'command', command: 'shellgate hook claude-code', timeout: 600 }],
      },
    ])
    expect(await json(join(configDir, '.claude.json'))).toEqual({
      mcpServers: { shellgate: { type: 'stdio', command: 'shellgate', args: ['mcp'] } },
    })
    expect(await json(join(configDir, 'settings.json.shellgate-backup'))).toEqual({
      theme: 'dark',
      permissions: { allow: ['Read'] },
    })
    const before = await readFile(join(configDir, 'settings.json'), 'utf8')
    const second = await connect(['claude-code', '--write'], env)
    expect(second.stdout).toContain('already connected, unchanged')
    expect(await readFile(join(configDir, 'settings.json'), 'utf8')).toBe(before)
  })

  it('refuses a file it cannot parse, or a symlink, and leaves it as it is', async () => {
    await mkdir(join(home, '.gemini'))
    await writeFile(join(home, '.gemini', 'settings.json'), '{ "mcpServers": ')
    const broken = await connect(['gemini', '--write'])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('is not valid JSON')
    expect(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')).toBe('{ "mcpServers": ')

    await mkdir(join(home, '.cursor'))
    await writeFile(join(home, 'elsewhere.json'), '{}')
    await symlink(join(home, 'elsewhere.json'), join(home, '.cursor', 'mcp.json'))
    const linked = await connect(['cursor', '--write'])
    expect(linked.code).toBe(1)
    expect(linked.stderr).toContain('not a regular file')
    expect(await readFile(join(home, 'elsewhere.json'), 'utf8')).toBe('{}')
  })

  it('Codex: appends the TOML table once and writes the hook; Gemini gets the trusted server and BeforeTool', async () => {
    const codexHome = join(home, 'codex')
    await mkdir(codexHome)
    await writeFile(join(codexHome, 'config.toml'), 'model = "o4"\n')
    const env = { CODEX_HOME: codexHome, GEMINI_CLI_HOME: join(home, 'gem') }
    await connect(['codex', '--write'], env)
    await connect(['codex', '--write'], env)
    const toml = await readFile(join(codexHome, 'config.toml'), 'utf8')
    expect(toml.startsWith('model = "o4"\n')).toBe(true)
    expect(toml.match(/\[mcp_servers\.shellgate\]/g)).toHaveLength(1)
    expect(toml).toContain('args = ["mcp"]')
    expect((await json(join(codexHome, 'hooks.json'))).hooks.PreToolUse[0].hooks[0].command).toBe(
      'shellgate hook codex',
    )
    await connect(['gemini', '--write'], env)
    expect(await json(join(home, 'gem', '.gemini', 'settings.json'))).toMatchObject({
      mcpServers: { shellgate: { command: 'shellgate', args: ['mcp'], trust: true } },
      hooks: { BeforeTool: [{ matcher: geminiHook.matcher }] },
    })
  })

  it('the hook is registered for every tool but the ones known to start no shell (issue 20.2), and an older Bash-only matcher is replaced', async () => {
    // Claude Code and Gemini CLI read these as JavaScript regexes; Codex 0.171 takes `*` for all.
    const claude = new RegExp(claudeCodeHook.matcher)
    for (const shellTool of ['Bash', 'PowerShell', 'write_stdin', 'exec_command', 'SomeShellAddedLater'])
      expect(claude.test(shellTool), shellTool).toBe(true)
    for (const other of ['Read', 'Edit', 'Grep', 'BashOutput', 'mcp__shellgate__bash'])
      expect(claude.test(other), other).toBe(false)
    const gemini = new RegExp(geminiHook.matcher)
    for (const shellTool of ['run_shell_command', 'run_in_terminal', 'write_stdin'])
      expect(gemini.test(shellTool), shellTool).toBe(true)
    for (const other of ['read_file', 'replace', 'mcp_shellgate_bash'])
      expect(gemini.test(other), other).toBe(false)
    expect(codexHook.matcher).toBe('*')

    const codexHome = join(home, 'codex-old')
    await mkdir(codexHome)
    const theirs = { matcher: 'apply_patch', hooks: [{ type: 'command', command: 'their-linter' }] }
    const older = {
      matcher: 'Bash',
      hooks: [{ type: 'command', command: 'shellgate hook codex', timeout: 600 }],
    }
    await writeFile(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [theirs, older] } }))
    await connect(['codex', '--write'], { CODEX_HOME: codexHome })
    expect((await json(join(codexHome, 'hooks.json'))).hooks.PreToolUse).toEqual([
      theirs,
      { ...older, matcher: '*' },
    ])
    const again = await connect(['codex', '--write'], { CODEX_HOME: codexHome })
    expect(again.stdout).toContain('unchanged')
  })

  it("Codex: the entry forwards SHELLGATE_HOME, which Codex drops otherwise; the one-liner sets a person's own", async () => {
    const codexHome = join(home, 'codex')
    await connect(['codex', '--write'], { CODEX_HOME: codexHome })
    expect(await readFile(join(codexHome, 'config.toml'), 'utf8')).toContain(
      'env_vars = ["SHELLGATE_HOME", "SHELLGATE_NO_OPEN", "SHELLGATE_MCP_DEADLINE_MS"]',
    )
    expect((await connect(['codex'])).stdout).toContain('  codex mcp add shellgate -- shellgate mcp\n')
    const own = await connect(['codex'], { SHELLGATE_HOME: "/srv/it's mine" })
    expect(own.stdout).toContain(
      `  codex mcp add --env 'SHELLGATE_HOME=/srv/it'\\''s mine' shellgate -- shellgate mcp\n`,
    )
  })

  it('bad input exits 2 with one line', async () => {
    for (const argv of [[], ['vim'], ['claude-code', 'extra'], ['claude-code', '--frob']]) {
      const { code, stderr, stdout } = await connect(argv)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trim().split('\n')).toHaveLength(1)
    }
  })
})

describe('shellgate connect writes a command that starts from any folder (issue 22.1)', () => {
  it('without shellgate on PATH it writes this install by absolute path, and that hook runs from /', async () => {
    const { execFile } = await import('node:child_process')
    const { promisify } = await import('node:util')
    const { CLI_ENTRY, TSX_LOADER } = await import('../mcp/test-hub')
    const run = promisify(execFile)
    const configDir = join(home, 'claude-config')
    // A PATH with node's folder only: no shellgate on it.
    const env = { HOME: home, PATH: '/usr/bin:/bin', CLAUDE_CONFIG_DIR: configDir }
    const { stdout } = await run(
      process.execPath,
      ['--import', TSX_LOADER, CLI_ENTRY, 'connect', 'claude-code', '--write'],
      { env, cwd: home, timeout: 60_000 },
    )
    expect(stdout).toContain('shellgate is not on PATH, so the configs name this install')
    const server = (await json(join(configDir, '.claude.json'))).mcpServers.shellgate
    expect(server).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: ['--import', TSX_LOADER, CLI_ENTRY, 'mcp'],
    })
    const hook = (await json(join(configDir, 'settings.json'))).hooks.PreToolUse[0].hooks[0].command as string
    expect(hook).toBe(`${process.execPath} --import ${TSX_LOADER} ${CLI_ENTRY} hook claude-code`)
    // The very words, from another folder, with a PATH that has no shellgate: it starts.
    const version = await run('sh', ['-c', hook.replace(/ hook claude-code$/, ' --version')], {
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      timeout: 60_000,
    })
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)

    // Run again once shellgate is on PATH: the plain command replaces ours, and the hook is not doubled.
    const again = await connect(['claude-code', '--write'], { CLAUDE_CONFIG_DIR: configDir })
    expect(again.code).toBe(0)
    const hooks = (await json(join(configDir, 'settings.json'))).hooks.PreToolUse
    expect(
      hooks.flatMap((group: { hooks: { command: string }[] }) => group.hooks.map((h) => h.command)),
    ).toEqual(['shellgate hook claude-code'])
  })

  it('refuses to write a command that would not start, and says why', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'sg-broken-bin-'))
    await writeFile(join(broken, 'shellgate'), '#!/bin/sh\necho "the build is missing" >&2\nexit 2\n', {
      mode: 0o755,
    })
    const configDir = join(home, 'claude-config')
    const result = await runCliCaptured(['connect', 'claude-code', '--write'], {
      env: { HOME: home, PATH: `${broken}:/usr/bin:/bin`, CLAUDE_CONFIG_DIR: configDir },
      cwd: home,
    })
    await rm(broken, { recursive: true, force: true })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      'nothing written: `shellgate --version` did not start: the build is missing',
    )
    await expect(readFile(join(configDir, 'settings.json'), 'utf8')).rejects.toThrow(/ENOENT/)
  })

  it('Codex: a table written before with another command is replaced, not left or doubled', async () => {
    const codexHome = join(home, 'codex')
    await mkdir(codexHome)
    await writeFile(
      join(codexHome, 'config.toml'),
      'model = "o3"\n\n[mcp_servers.shellgate]\ncommand = "/old/shellgate"\nargs = ["mcp"]\n\n[other]\nx = 1\n',
    )
    expect((await connect(['codex', '--write'], { CODEX_HOME: codexHome })).code).toBe(0)
    const toml = await readFile(join(codexHome, 'config.toml'), 'utf8')
    expect(toml).not.toContain('/old/shellgate')
    expect(toml.match(/\[mcp_servers\.shellgate\]/g)).toHaveLength(1)
    expect(toml).toContain('command = "shellgate"')
    expect(toml).toMatch(/\n\[other\]\nx = 1\n$/)
    expect(toml.startsWith('model = "o3"\n')).toBe(true)
  })
})
