import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { RealCliName } from './real-clis'

/** How each real CLI runs one headless turn whose model calls Shellgate's MCP `bash`. */
export interface Driver {
  cli: RealCliName
  connect: 'claude-code' | 'codex' | 'gemini'
  /** How the agent appears in Shellgate's sessions and audit log through its hook. */
  agent: string
  standIn: string
  /** How the client names Shellgate's bash tool to its model. */
  mcpBash: string
  env(home: string): Record<string, string>
  prepare?(home: string): Promise<void>
  argv(bin: string): string[]
}

export const DRIVERS: Driver[] = [
  {
    cli: 'claude',
    connect: 'claude-code',
    agent: 'claude-code',
    standIn: resolve('test/fixtures/real-clis/with-fake-anthropic-api.mjs'),
    mcpBash: 'mcp__shellgate__bash',
    env: (home) => ({ CLAUDE_CONFIG_DIR: home, ANTHROPIC_API_KEY: 'not-a-key: the API is a local stand-in' }),
    argv: (bin) => [
      bin,
      '-p',
      'do the scripted step',
      '--output-format',
      'json',
      '--model',
      'claude-sonnet-4-5',
    ],
  },
  {
    cli: 'codex',
    connect: 'codex',
    agent: 'codex',
    standIn: resolve('test/fixtures/real-clis/with-fake-responses-api.mjs'),
    // One namespace per MCP server, `bash` in it.
    mcpBash: 'mcp__shellgate:bash',
    env: (home) => ({ CODEX_HOME: join(home, '.codex-home'), STAND_IN_KEY: 'not-a-key' }),
    argv: (bin) => [
      bin,
      'exec',
      ...['--skip-git-repo-check', '--ephemeral', '--json', '--dangerously-bypass-hook-trust'],
      ...['-c', 'model_provider="stand-in"', '-c', 'model_providers.stand-in.name="stand-in"'],
      ...['-c', 'model_providers.stand-in.base_url="{FAKE_API_URL}"'],
      ...['-c', 'model_providers.stand-in.wire_api="responses"'],
      ...['-c', 'model_providers.stand-in.env_key="STAND_IN_KEY"'],
      ...['-c', 'model_providers.stand-in.supports_websockets=false'],
      // `codex exec` sends its first request without waiting for MCP servers that are still
      // starting (under tsx, `shellgate mcp` takes seconds); it refuses an MCP call that needs its
      // own approval, which exec cannot ask for. Shellgate is the one that asks.
      ...['-c', 'mcp_optional_startup_grace_ms=60000'],
      ...['-c', 'mcp_servers.shellgate.default_tools_approval_mode="approve"'],
      ...['-m', 'gpt-stand-in', '-s', 'danger-full-access'],
      'do the scripted step',
    ],
  },
  {
    cli: 'gemini',
    connect: 'gemini',
    agent: 'gemini-cli',
    standIn: resolve('test/fixtures/real-clis/with-fake-gemini-api.mjs'),
    mcpBash: 'mcp_shellgate_bash',
    env: (home) => ({
      GEMINI_CLI_HOME: home,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_API_KEY: 'not-a-key: the API is a local stand-in',
    }),
    async prepare(home) {
      const settings = join(home, '.gemini', 'settings.json')
      const written = JSON.parse(await readFile(settings, 'utf8'))
      await writeFile(
        settings,
        JSON.stringify({ ...written, security: { auth: { selectedType: 'gemini-api-key' } } }),
      )
    },
    argv: (bin) => [
      bin,
      ...['-m', 'gemini-2.5-flash', '-p', 'do the scripted step', '--approval-mode', 'yolo'],
      ...['--output-format', 'json'],
    ],
  },
]
