import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ServeProcess } from './browser-mode-server'

export interface McpAgent {
  name: string
  workspace: string
  /** One `bash` tool call; resolves with the text the model would receive. */
  bash(command: string): Promise<{ text: string; isError: boolean }>
  close(): Promise<void>
}

/**
 * A real MCP client (the SDK's own) naming itself `name version`, running the built
 * `shellgate mcp` in its own workspace (a folder under the served one), as an agent would.
 */
export async function startMcpAgent(
  serve: ServeProcess,
  options: { name: string; version: string; folder: string },
): Promise<McpAgent> {
  const workspace = join(serve.workspace, options.folder)
  await mkdir(workspace, { recursive: true })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve('bin/shellgate.js'), 'mcp', '--workspace', workspace],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: serve.home,
      SHELLGATE_HOME: serve.home,
      SHELLGATE_NO_OPEN: '1',
      SHELLGATE_MCP_DEADLINE_MS: '40000',
    },
    cwd: workspace,
    stderr: 'pipe',
  })
  const client = new Client({ name: options.name, version: options.version })
  await client.connect(transport)
  return {
    name: `${options.name} ${options.version}`,
    workspace,
    async bash(command) {
      const result = await client.callTool({ name: 'bash', arguments: { command } }, undefined, {
        timeout: 50_000,
      })
      const text = (result.content as Array<{ type: string; text?: string }>)
        .map((item) => item.text ?? '')
        .join('\n')
      return { text, isError: result.isError === true }
    },
    close: () => client.close(),
  }
}
