import type { SandboxStatusView } from '../../../shared/ipc/domains/sandbox'

/** What the backend probe found, in plain words; a missing backend is a warning, never hidden. */
export function SandboxStatus({ status }: { status: SandboxStatusView }) {
  const { backend } = status
  return (
    <>
      <p role={backend.available ? 'status' : 'alert'} data-field="summary">
        {status.summary}
      </p>
      <dl className="facts" data-testid="sandbox-facts">
        <dt>Backend</dt>
        <dd data-field="backend">
          {backend.backend === 'none' ? 'no sandbox' : `${backend.backend} (${backend.path})`}
        </dd>
        {(['read-only', 'workspace-write'] as const).map((profile) => (
          <div key={profile} className="fact">
            <dt>{profile}</dt>
            <dd data-field={`profile-${profile}`}>
              {backend.profiles[profile].ok ? 'works' : `does not work: ${backend.profiles[profile].error}`}
            </dd>
          </div>
        ))}
      </dl>
      {status.problems.length > 0 && (
        <ul aria-label="Sandbox setting problems">
          {status.problems.map((problem) => (
            <li key={`${problem.field}:${problem.entry}`} role="alert">
              {problem.message}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
