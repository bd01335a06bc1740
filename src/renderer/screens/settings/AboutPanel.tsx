import { useConnection } from '../../connection/ConnectionProvider'
import { useRequest } from '../../use-request'

export function AboutPanel() {
  const about = useRequest('app.about', {})
  const { logOut } = useConnection()
  return (
    <section className="panel" aria-labelledby="about-title">
      <h2 id="about-title">About</h2>
      {about.error && <p role="alert">Could not load: {about.error}</p>}
      {about.data && (
        <dl className="facts" data-testid="about-facts">
          <dt>Version</dt>
          <dd data-field="appVersion">{about.data.appVersion}</dd>
          <dt>Platform</dt>
          <dd data-field="platform">
            {about.data.platform} ({about.data.arch})
          </dd>
          <dt>Node</dt>
          <dd data-field="nodeVersion">{about.data.nodeVersion}</dd>
          <dt>Electron</dt>
          <dd data-field="electronVersion">{about.data.electronVersion ?? 'browser mode'}</dd>
          <dt>Data directory</dt>
          <dd data-field="dataDir">{about.data.dataDir}</dd>
          <dt>Workspace</dt>
          <dd data-field="workspace">{about.data.workspace}</dd>
          <dt>Transport</dt>
          <dd data-field="transport">{about.data.transport}</dd>
        </dl>
      )}
      {logOut && (
        <p>
          {/* Ends this page's login on the server: a copy of its key (the browser keeps it on disk) opens nothing after. */}
          <button type="button" onClick={logOut}>
            Log out of this page
          </button>
        </p>
      )}
    </section>
  )
}
