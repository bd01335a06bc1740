import { useMemo, useState } from 'react'
import type { z } from 'zod'
import type { OutputSliceSchema } from '../../shared/ipc/domains/bash'
import { createAnsiDocument } from '../ansi/ansi-document'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { formatBytes } from '../format/measures'
import { VirtualOutput } from '../output/VirtualOutput'
import { useClient } from '../rpc'

type OutputSlice = z.infer<typeof OutputSliceSchema>

/** The call's full output file (its last 4 MiB), fetched only when asked for, with colours and virtual scrolling. */
export function FullOutput({
  sessionId,
  callId,
  commandStart,
}: {
  sessionId: string
  callId: string
  /** Makes the button's name unique in a history of many calls ("Show full output of make test"). */
  commandStart: string
}) {
  const client = useClient()
  const [slice, setSlice] = useState<OutputSlice | null>(null)
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string>()
  const output = useMemo(() => (slice ? createAnsiDocument(slice.text) : null), [slice])

  const toggle = () => {
    if (open) {
      setOpen(false)
      return
    }
    setOpen(true)
    setError(undefined)
    client
      .request('bash.output', { sessionId, callId })
      .then(setSlice, (failure: unknown) => setError(errorMessage(failure)))
  }

  return (
    <div className="full-output">
      <button
        type="button"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} full output of ${commandStart}`}
        onClick={toggle}
      >
        {open ? 'Hide full output' : 'Show full output'}
      </button>
      {open && <FormError message={error} />}
      {open && slice && output && (
        <>
          <p className="muted">
            {formatBytes(slice.totalBytes)}
            {slice.skippedBytes > 0 && `, the first ${formatBytes(slice.skippedBytes)} not shown`}
            {slice.path && (
              <>
                {' '}
                · full file <code>{slice.path}</code>
              </>
            )}
          </p>
          <VirtualOutput document={output} label="Full output" />
        </>
      )}
    </div>
  )
}
