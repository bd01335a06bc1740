import type { z } from 'zod'

/** MCP tool annotations (hints for the client's own permission prompts). */
export interface McpToolAnnotations {
  title: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

/** What one tool call can use beside its arguments. */
export interface McpToolContext {
  /** Aborted when the client sends notifications/cancelled for this call, or goes away. */
  signal: AbortSignal
  /** Present when the client sent a progressToken; each value must be larger than the last. */
  progress: ((update: { progress: number; message: string }) => void) | null
}

/** A tool result: the model-facing text, and the same facts as data. */
export interface McpToolResult {
  text: string
  structured: Record<string, unknown>
  isError: boolean
}

/**
 * One MCP tool, independent of the SDK: the adapter in sdk/ lists it (its zod input as JSON
 * Schema) and calls `run` with input that already passed the schema.
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string
  description: string
  inputSchema: S
  annotations: McpToolAnnotations
  run(input: z.output<S>, context: McpToolContext): Promise<McpToolResult>
}

/** Lets a list of tools with different schemas share one array type. */
export function defineTool<S extends z.ZodObject>(tool: McpTool<S>): McpTool {
  return tool as unknown as McpTool
}

/** A refusal the model can act on: nothing ran. */
export function toolError(text: string, structured: Record<string, unknown> = {}): McpToolResult {
  return { text, structured: { error: text, ...structured }, isError: true }
}
