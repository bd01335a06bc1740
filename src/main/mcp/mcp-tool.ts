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

/**
 * A tool result: the model-facing text, and the same facts as data (null: text only). Claude Code
 * and Codex give their model the structured content instead of the text whenever there is some
 * (issue 20), so the adapter puts the text in it as `output`: no tool can leave its model without it.
 */
export interface McpToolResult {
  text: string
  structured: Record<string, unknown> | null
  isError: boolean
}

/**
 * One MCP tool, independent of the SDK: the adapter in sdk/ lists it (its zod input and output as
 * JSON Schema) and calls `run` with input that already passed the schema.
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string
  description: string
  inputSchema: S
  /** The facts in `structured`, beside the `output` text the adapter adds. */
  outputSchema: z.ZodObject
  annotations: McpToolAnnotations
  run(input: z.output<S>, context: McpToolContext): Promise<McpToolResult>
}

/** Lets a list of tools with different schemas share one array type. */
export function defineTool<S extends z.ZodObject>(tool: McpTool<S>): McpTool {
  return tool as unknown as McpTool
}

/**
 * A refusal the model can act on: nothing ran. Text only, so a client that checks results against
 * the tool's output schema has nothing to reject and shows the text.
 */
export function toolError(text: string): McpToolResult {
  return { text, structured: null, isError: true }
}
