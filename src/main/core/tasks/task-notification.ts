import type { TaskInfo } from './task-types'

/** Long commands are shortened in the one-line summary; the full command is in the task listing. */
const SUMMARY_COMMAND_CHARS = 120

/**
 * The notice injected into the session when a background task ends and its result was not read
 * yet (task.notified false). It says who stopped a stopped task, because "stopped by you" and
 * "stopped by the user" call for different next steps from the model.
 */
export function formatTaskNotification(task: TaskInfo): string {
  return [
    '<task-notification>',
    `<task-id>${task.taskId}</task-id>`,
    `<status>${task.status}</status>`,
    `<summary>${summarise(task)}</summary>`,
    `<output-file>${task.outputPath}</output-file>`,
    'Read the output file to see what the command printed.',
    '</task-notification>',
  ].join('\n')
}

function summarise(task: TaskInfo): string {
  const command = `Background command "${shorten(task.command)}"`
  switch (task.status) {
    case 'running':
      return `${command} is still running.`
    case 'completed':
      return `${command} completed (exit code 0).`
    case 'stopped':
      return `${command} was stopped by ${task.stoppedBy === 'caller' ? 'you' : 'the user'}.`
    case 'failed':
      if (task.outputLimitReached) return `${command} was killed: its output file reached the size cap.`
      return task.exitCode === null
        ? `${command} failed: ${task.errorMessage ?? 'it was killed'}.`
        : `${command} failed with exit code ${task.exitCode}.`
    default:
      return `${command} ended (${task.status}): ${task.errorMessage ?? 'no details'}.`
  }
}

function shorten(command: string): string {
  const oneLine = command.replace(/\s+/g, ' ').trim()
  return oneLine.length <= SUMMARY_COMMAND_CHARS ? oneLine : `${oneLine.slice(0, SUMMARY_COMMAND_CHARS - 1)}…`
}
