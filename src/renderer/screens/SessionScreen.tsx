import { EmptyState } from '../components/EmptyState'

export function SessionScreen() {
  return (
    <EmptyState title="Session">
      Commands run by an agent in this workspace will appear here with their status, exit code and output. No
      commands have run yet.
    </EmptyState>
  )
}
