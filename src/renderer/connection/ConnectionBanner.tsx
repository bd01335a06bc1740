import { useConnection } from './ConnectionProvider'

/** Says so while the server is out of reach; requests made meanwhile fail with "cancelled". */
export function ConnectionBanner() {
  const { status } = useConnection()
  if (status === 'open') return null
  return (
    <p className="connection-banner" role="status">
      Not connected to Shellgate; reconnecting… If Shellgate was restarted, open the address it printed (each
      start has a new token).
    </p>
  )
}
