import { useSettings } from '../../settings-state/SettingsProvider'
import { useRequest } from '../../use-request'
import { SandboxForm } from './SandboxForm'
import { SandboxStatus } from './SandboxStatus'
import { WorkspaceNetworkForm } from './WorkspaceNetworkForm'

/** Settings → Sandbox: which backend works here, what commands get, and the setting itself. */
export function SandboxPanel() {
  const { snapshot, error } = useSettings()
  const status = useRequest('sandbox.status', {})
  const network = useRequest('sandbox.workspaceNetwork', {})
  return (
    <section className="panel" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox</h2>
      {status.error && <p role="alert">Could not read the sandbox status: {status.error}</p>}
      {status.data && <SandboxStatus status={status.data} />}
      {error && <p role="alert">Could not load settings: {error}</p>}
      {snapshot && <SandboxForm onSaved={status.reload} />}
      {network.error && <p role="alert">Could not read this workspace's network: {network.error}</p>}
      {network.data && <WorkspaceNetworkForm current={network.data} onSaved={network.reload} />}
    </section>
  )
}
