import type { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { McpTool, McpToolResult } from '../mcp-tool'

/**
 * The only file that imports @modelcontextprotocol/sdk (v1). Everything else speaks McpTool and
 * McpServerHandle, so moving to SDK v2 changes this file alone.
 */

export interface McpClientFacts {
  name: string
  version: string | null
  /** Whether the client answers roots/list. */
  supportsRoots: boolean
}

export interface McpServerHandle {
  /** The client's clientInfo once `initialize` arrived; null before. */
  client(): McpClientFacts | null
  /** The client's roots as file paths (file:// URIs only); [] when it has none or does not answer. */
  listRoots(timeoutMs: number): Promise<string[]>
  /** Resolves when stdin ends or the transport closes: the agent quit. */
  closed: Promise<void>
  close(): Promise<void>
}

export interface McpStdioOptions {
  info: { name: string; version: string }
  instructions: string
  tools: McpTool[]
  stdin: Readable
  stdout: Writable
  /** Protocol problems (a malformed line): never stdout, which carries only protocol. */
  log: (line: string) => void
}

export async function startMcpStdioServer(options: McpStdioOptions): Promise<McpServerHandle> {
  const server = new Server(options.info, {
    capabilities: { tools: { listChanged: false } },
    instructions: options.instructions,
  })
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]))

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.tools.map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { type: 'object' },
      outputSchema: z.toJSONSchema(withOutput(tool.outputSchema), { io: 'output' }) as { type: 'object' },
      annotations: tool.annotations,
    })),
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name)
    if (!tool)
      return toCallResult(
        refusal(`Unknown tool "${request.params.name}". Tools: ${[...byName.keys()].join(', ')}`),
      )
    const parsed = tool.inputSchema.safeParse(request.params.arguments ?? {})
    if (!parsed.success)
      return toCallResult(refusal(`Invalid input for ${tool.name}: ${describeIssues(parsed.error)}`))
    const token = request.params._meta?.progressToken
    const progress =
      token === undefined
        ? null
        : (update: { progress: number; message: string }) => {
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: update.progress, message: update.message },
              })
              .catch(() => undefined)
          }
    try {
      return toCallResult(await tool.run(parsed.data, { signal: extra.signal, progress }), tool, options.log)
    } catch (error) {
      // A tool never crashes the server: the model reads what went wrong.
      return toCallResult(
        refusal(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`),
      )
    }
  })

  const transport = new StdioServerTransport(options.stdin, options.stdout)
  let resolveClosed!: () => void
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  server.onclose = () => resolveClosed()
  server.onerror = (error) => options.log(`shellgate mcp: ${error.message}`)
  // The SDK's stdio transport does not notice the client going away; stdin ending is that signal.
  options.stdin.once('end', resolveClosed)
  options.stdin.once('close', resolveClosed)
  await server.connect(transport)

  return {
    client() {
      const version = server.getClientVersion()
      if (!version) return null
      return {
        name: version.name,
        version: version.version || null,
        supportsRoots: server.getClientCapabilities()?.roots !== undefined,
      }
    },
    async listRoots(timeoutMs) {
      if (!server.getClientCapabilities()?.roots) return []
      try {
        const { roots } = await server.listRoots(undefined, { timeout: timeoutMs })
        return roots.flatMap((root) => (root.uri.startsWith('file://') ? [fileURLToPath(root.uri)] : []))
      } catch {
        return []
      }
    },
    closed,
    close: () => server.close(),
  }
}

function refusal(text: string): McpToolResult {
  return { text, structured: null, isError: true }
}

/** A tool's declared output: its facts, and `output`, the text its model reads. */
function withOutput(schema: z.ZodObject) {
  return z
    .object({ output: z.string().describe('What the model reads: the same text as content') })
    .extend(schema.shape)
}

/**
 * The text is always in `content`; with facts it is also `structuredContent.output`, which is what
 * Claude Code and Codex show their model. Facts that do not match the declared schema are dropped
 * (and logged) rather than sent: a client that checks them would reject the whole result, and the
 * model would get nothing.
 */
function toCallResult(result: McpToolResult, tool?: McpTool, log?: (line: string) => void) {
  const content = [{ type: 'text' as const, text: result.text }]
  if (result.structured === null || !tool) return { content, isError: result.isError }
  const checked = withOutput(tool.outputSchema).safeParse({ output: result.text, ...result.structured })
  if (!checked.success) {
    log?.(
      `shellgate mcp: ${tool.name} result does not match its output schema: ${describeIssues(checked.error)}`,
    )
    return { content, isError: result.isError }
  }
  return { content, structuredContent: checked.data, isError: result.isError }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ')
}
