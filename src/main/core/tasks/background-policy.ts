/**
 * seed 003: every foreground Bash call runs under the background lifecycle (auto_on_timeout), except
 * a command whose first word is `sleep`: a sleep that outlives its timeout is meant to be killed.
 */
export function isAutoBackgroundEligible(command: string): boolean {
  const firstWord = command.trimStart().split(/\s+/, 1)[0]
  return firstWord !== 'sleep'
}
