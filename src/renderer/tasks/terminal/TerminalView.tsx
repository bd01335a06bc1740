import '@xterm/xterm/css/xterm.css'
import { Terminal } from '@xterm/xterm'
import { useEffect, useRef, useState } from 'react'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { useClient } from '../../rpc'
import { adoptTerminalStyles } from './adopt-terminal-styles'
import { bytesOf, TerminalStream } from './terminal-stream'

/** Catching up reads at most this much of a long history: older output is in the full log. */
const CATCH_UP_MAX_BYTES = 4 * 1024 * 1024

/**
 * A terminal task on the desk (issue 23.2): xterm.js draws the task's raw output (control
 * sequences included), and what the person types goes to the task as the person's input. Output
 * is followed by byte offset: the history first (tasks.terminalRead), then tasks.terminalData
 * events, reading again whenever an event shows a gap.
 */
export function TerminalView({
  sessionId,
  taskId,
  running,
}: {
  sessionId: string
  taskId: string
  running: boolean
}) {
  const client = useClient()
  const host = useRef<HTMLElement>(null)
  const live = useRef(running)
  live.current = running
  const [error, setError] = useState<string>()

  useEffect(() => {
    const element = host.current
    if (!element) return
    const stream = new TerminalStream()
    const terminal = new Terminal({ cols: 120, rows: 40, scrollback: 5_000, convertEol: false })
    const releaseStyles = adoptTerminalStyles(element)
    terminal.open(element)
    let closed = false
    let reading: Promise<void> | null = null

    const readOn = (): Promise<void> => {
      reading ??= (async () => {
        for (;;) {
          const slice = await client.request('tasks.terminalRead', { sessionId, taskId, from: stream.offset })
          if (closed) return
          if (slice.cols && slice.rows && (slice.cols !== terminal.cols || slice.rows !== terminal.rows))
            terminal.resize(slice.cols, slice.rows)
          const size = slice.size ?? 0
          // A long history: start near its end rather than replaying megabytes.
          if (stream.offset === 0 && size > CATCH_UP_MAX_BYTES) {
            stream.offset = size - CATCH_UP_MAX_BYTES
            continue
          }
          const bytes = bytesOf(slice.data)
          const fresh = stream.accept(slice.from, bytes)
          if (fresh !== 'gap' && fresh.length > 0) terminal.write(fresh)
          if (bytes.length === 0 || stream.offset >= size) return
        }
      })()
        .catch((failure: unknown) => setError(errorMessage(failure)))
        .finally(() => {
          reading = null
        })
      return reading
    }

    const offData = client.on('tasks.terminalData', (event) => {
      if (event.taskId !== taskId || closed) return
      if (reading) {
        void reading.then(readOn)
        return
      }
      const fresh = stream.accept(event.from, bytesOf(event.data))
      if (fresh === 'gap') void readOn()
      else if (fresh.length > 0) terminal.write(fresh)
    })
    const typing = terminal.onData((text) => {
      if (!live.current) return
      client
        .request('tasks.input', { sessionId, taskId, text })
        .catch((failure: unknown) => setError(errorMessage(failure)))
    })
    void readOn()
    return () => {
      closed = true
      offData()
      typing.dispose()
      terminal.dispose()
      releaseStyles()
    }
  }, [client, sessionId, taskId])

  return (
    <div className="task-terminal">
      <section
        ref={host}
        className="terminal-host"
        aria-label={running ? 'Task terminal: type here to send input' : 'Task terminal (ended)'}
        data-field="terminal"
      />
      <FormError message={error} />
    </div>
  )
}
