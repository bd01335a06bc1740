import { EmptyState } from '../components/EmptyState'

export function ApprovalsScreen() {
  return (
    <EmptyState title="Approvals">
      Commands that are not read-only wait here for you to allow or deny them. Nothing is waiting for
      approval.
    </EmptyState>
  )
}
