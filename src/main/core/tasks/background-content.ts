/**
 * seed 003: what the model reads when a command moved to the background. It names the id (for
 * TaskOutput / TaskStop) and the output file (readable at any time while the command runs).
 */
export function formatBackgroundedContent(taskId: string, outputPath: string): string {
  return [
    `Command running in background with ID: ${taskId}`,
    `Output is being written to: ${outputPath}`,
    'Use the Read tool on that file to see the output so far, TaskOutput with this ID to wait for the result, or TaskStop to end it. You will be notified when it exits.',
  ].join('\n')
}
