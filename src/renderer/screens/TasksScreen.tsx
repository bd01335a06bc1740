import { EmptyState } from '../components/EmptyState'

export function TasksScreen() {
  return (
    <EmptyState title="Tasks">
      Long-running commands move here as background tasks, with their live output and a Stop button. There are
      no background tasks.
    </EmptyState>
  )
}
