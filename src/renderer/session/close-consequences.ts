/**
 * What closing a session takes with it, in words ("2 approvals will be denied, 1 task will be
 * stopped"), or null when nothing is lost and the session may close at once.
 */
export function closeConsequences(pendingApprovals: number, runningTasks: number): string | null {
  const parts: string[] = []
  if (pendingApprovals > 0)
    parts.push(`${pendingApprovals} ${pendingApprovals === 1 ? 'approval' : 'approvals'} will be denied`)
  if (runningTasks > 0) parts.push(`${runningTasks} ${runningTasks === 1 ? 'task' : 'tasks'} will be stopped`)
  return parts.length === 0 ? null : parts.join(', ')
}
