/** Why a command is in the background: asked for, its timeout, the caller's answer deadline, or a person. */
export type BackgroundReason = 'explicit' | 'timeout' | 'answer_deadline' | 'user'

const WHY: Record<BackgroundReason, string | null> = {
  explicit: null,
  timeout:
    'It was still running at its timeout, so it keeps running in the background instead of being killed.',
  answer_deadline:
    'It was still running when this call had to answer (your client drops calls after about a minute), so it keeps running in the background.',
  user: 'The user moved it to the background.',
}

/**
 * seed 003: what the model reads when a command moved to the background. It names the id, the
 * output file (readable at any time while the command runs) and Shellgate's own tools for it:
 * task_output to wait for the result and task_stop to end it.
 */
export function formatBackgroundedContent(
  taskId: string,
  outputPath: string,
  reason: BackgroundReason = 'explicit',
): string {
  const why = WHY[reason]
  return [
    `Command running in background with ID: ${taskId}`,
    ...(why ? [why] : []),
    `Output is being written to: ${outputPath}`,
    `Call task_output with task_id "${taskId}" to wait for the result, or task_stop to end it.`,
  ].join('\n')
}

/** An MCP call that must answer before the person has: the command runs later as task T, if allowed. */
export function formatAwaitingApprovalContent(taskId: string): string {
  return [
    `Waiting for your approval in Shellgate — it will run as task ${taskId}.`,
    `Nothing has run yet. Call task_output with task_id "${taskId}" to wait for the decision and then the output; if the person denies it, task_output returns their message.`,
  ].join('\n')
}
