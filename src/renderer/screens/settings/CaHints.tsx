import { useState } from 'react'
import type { z } from 'zod'
import type { ConnectionReportSchema } from '../../../shared/ipc/domains/system'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { useClient } from '../../rpc'
import { useSettings } from '../../settings-state/SettingsProvider'

type CaHint = NonNullable<z.infer<typeof ConnectionReportSchema>['caHints']>[number]

/**
 * After a test failed on an untrusted certificate: which CA settings exist (the user's own,
 * sealed away from Shellgate's requests on purpose), and the offer to use one of those files for
 * Shellgate's own requests (Settings → Network → CA certificate file).
 */
export function CaHints({ hints }: { hints: CaHint[] }) {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [error, setError] = useState<string>()
  const [used, setUsed] = useState<string>()
  const network = snapshot?.user.network

  const use = (file: string) => {
    if (!network) return
    setError(undefined)
    client
      .request('settings.setNetwork', {
        httpProxy: network.httpProxy ?? '',
        noProxy: network.noProxy ?? '',
        caCertFile: file,
        timeoutMs: network.timeoutMs ?? null,
      })
      .then(
        (next) => {
          apply(next)
          setUsed(file)
        },
        (failure: unknown) => setError(errorMessage(failure)),
      )
  }

  return (
    <section className="trust-notice" aria-label="Certificate settings found">
      <p>
        The server's certificate was not trusted.{' '}
        {hints.length === 0
          ? 'No CA settings were found: no sealed NODE_EXTRA_CA_CERTS, SSL_CERT_FILE or similar, and no CA file in Shellgate’s own settings.'
          : 'These CA settings were found:'}
      </p>
      {hints.length > 0 && (
        <ul>
          {hints.map((hint) => (
            <li key={`${hint.source}:${hint.name}`}>
              {hint.source === 'sealed' ? 'sealed ' : 'Shellgate’s own '}
              <code>{hint.name}</code> = <code>{hint.value}</code>
              {hint.source === 'sealed' && ' (your tools get it; Shellgate’s own requests do not)'}
              {hint.usable && (
                <>
                  {' '}
                  <button
                    type="button"
                    aria-label={`Use ${hint.value} for Shellgate’s own requests`}
                    onClick={() => use(hint.value)}
                    disabled={used === hint.value}
                  >
                    Use this file for Shellgate’s own requests
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {used && (
        <p role="status">
          Shellgate’s own requests now trust <code>{used}</code>. Test the connection again.
        </p>
      )}
      <FormError message={error} />
    </section>
  )
}
