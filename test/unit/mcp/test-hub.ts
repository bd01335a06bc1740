import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { createCore } from '../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../src/main/core/env/sanitize-entry'
import { APP_VERSION } from '../../../src/main/core/version'
import { claimHub, type RunningHub } from '../../../src/main/hub/hub-server'
import { createIpcHost, type IpcHost } from '../../../src/main/ipc/host'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient, type TypedClient } from '../../../src/shared/ipc/client'
import { contract, type ShellgateContract } from '../../../src/shared/ipc/contract'

export const CLI_ENTRY = resolve('src/main/cli.ts')
/** By absolute URL: the child runs in a temp workspace, where no node_modules resolves `tsx`. */
export const TSX_LOADER = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href

export interface TestHub {
  home: string
  workspace: string
  host: IpcHost
  /** A `ui` connection, as the Shellgate window has: it answers approvals. */
  ui: TypedClient<ShellgateContract>
  /** The environment for a `shellgate mcp` child that should find this hub. */
  env: Record<string, string>
  dispose(): Promise<void>
}

/**
 * A real hub in this process: a core, its dispatcher, and the agent socket in a temp home.
 * `onAgentRequest` sees every request that arrives on the agent socket, as sent.
 */
export async function startTestHub(
  options: { onAgentRequest?: (request: { method: string; params: unknown }) => void } = {},
): Promise<TestHub> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-mcp-ws-')))
  const home = await realpath(await mkdtemp(join(tmpdir(), 'sg-mcp-home-')))
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    SHELLGATE_HOME: home,
  }
  const host = await createIpcHost((hub) =>
    createCore({
      workspace,
      env: sanitizeEntryEnv(base, 'linux'),
      runtime: 'browser',
      electronVersion: null,
      captureLoginShell: false,
      emit: hub.emit,
    }),
  )
  const claimed = await claimHub({ home, platform: 'linux', warn: () => undefined })
  if (claimed.kind !== 'claimed') throw new Error('a hub already runs in a fresh temp home')
  const { onAgentRequest } = options
  const dispatcher: typeof host.dispatcher = onAgentRequest
    ? {
        dispatch(raw, context) {
          const { method, params } = raw as { method: string; params: unknown }
          onAgentRequest({ method, params })
          return host.dispatcher.dispatch(raw, context)
        },
      }
    : host.dispatcher
  const running: RunningHub = await claimed.claim.serve({
    dispatcher,
    hub: host.hub,
    version: APP_VERSION,
    uiUrl: null,
  })
  host.setHubControl({
    hello: () => ({ hubId: running.info.hubId, version: APP_VERSION, uiUrl: null }),
    mintUiAddress: () => 'http://127.0.0.1:9/#code=test',
    openUi: async () => ({
      opened: false,
      url: 'http://127.0.0.1:9/',
      message: 'the test hub opens no browser',
    }),
  })
  const loopback = connectLoopback(host.dispatcher, host.hub, 'ui')
  return {
    home,
    workspace,
    host,
    ui: createClient(contract, loopback.transport),
    env: { ...base, SHELLGATE_NO_OPEN: '1', NODE_NO_WARNINGS: '1' },
    async dispose() {
      loopback.disconnect()
      await running.close()
      await host.core.dispose()
      await rm(workspace, { recursive: true, force: true })
      await rm(home, { recursive: true, force: true })
    },
  }
}

export interface McpChild {
  client: Client
  transport: StdioClientTransport
  stderr: () => string
  close(): Promise<void>
}

/** The MCP SDK's own Client, spawning `shellgate mcp` (from source, under tsx) over stdio. */
export async function connectMcpClient(
  hub: { env: Record<string, string>; workspace: string },
  options: {
    name?: string
    version?: string
    deadlineMs?: number
    args?: string[]
    roots?: string[]
    /**
     * Start `shellgate mcp` from a process of its own, as each run of a real agent does: without it
     * every server is a child of this test process, which then looks like one agent run.
     */
    ownAgentProcess?: boolean
  } = {},
): Promise<McpChild> {
  const serverArgs = ['--import', TSX_LOADER, CLI_ENTRY, 'mcp', ...(options.args ?? [])]
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: options.ownAgentProcess
      ? [
          '-e',
          "const c=require('node:child_process').spawn(process.execPath,process.argv.slice(1),{stdio:'inherit'});c.on('exit',(code)=>process.exit(code??1));process.on('SIGTERM',()=>c.kill('SIGTERM'))",
          '--',
          ...serverArgs,
        ]
      : serverArgs,
    env: {
      ...hub.env,
      ...(options.deadlineMs === undefined ? {} : { SHELLGATE_MCP_DEADLINE_MS: String(options.deadlineMs) }),
    },
    cwd: hub.workspace,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
    if (process.env.SG_DEBUG) process.stderr.write(chunk)
  })
  const client = new Client(
    { name: options.name ?? 'test-agent', version: options.version ?? '1.2.3' },
    options.roots ? { capabilities: { roots: { listChanged: false } } } : {},
  )
  const roots = options.roots
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: root })),
    }))
  }
  await client.connect(transport)
  return { client, transport, stderr: () => stderr, close: () => client.close() }
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? []
  return content.map((block) => block.text ?? '').join('\n')
}
