import { useEffect, useState } from 'react'
import type { TaskInputEntry } from '../../../shared/ipc/domains/tasks'
import { useEvent } from '../../events/use-event'
import { formatTime } from '../../format/measures'
import { useClient } from '../../rpc'

/** Enter, Ctrl+C and friends, as a person reads them. */
function visibleKeys(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, '⏎')
    .replace(/\t/g, '⇥')
    .replace(/[\u0000-\u001f\u007f]/g, (char) =>
      char === '\u001b' ? '⎋' : `^${String.fromCharCode(char.charCodeAt(0) ^ 0x40)}`,
    )
}

/**
 * Who typed what into a terminal task (issue 23.2): the agent's input marked as the agent's, the
 * person's own, and input typed while the terminal hid it shown only as hidden, with its length.
 */
export function TaskInputLog({ sessionId, taskId }: { sessionId: string; taskId: string }) {
  const client = useClient()
  const [entries, setEntries] = useState<TaskInputEntry[]>([])
  useEffect(() => {
    let current = true
    client.request('tasks.inputs', { sessionId, taskId }).then(
      (list) =>
        current &&
        setEntries((seen) => [
          ...list,
          ...seen.filter((entry) => !list.some((each) => each.id === entry.id)),
        ]),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [client, sessionId, taskId])
  useEvent('tasks.input', (entry) => {
    if (entry.taskId !== taskId) return
    setEntries((list) => {
      const at = list.findIndex((each) => each.id === entry.id)
      if (at === -1) return [...list, entry]
      const next = [...list]
      next[at] = entry
      return next
    })
  })
  if (entries.length === 0) return <p className="muted">Nothing typed yet.</p>
  return (
    <ol className="task-inputs" aria-label="Input typed into this task">
      {entries.slice(-50).map((entry) => (
        <li key={entry.id} data-by={entry.by} data-hidden={entry.hidden || undefined}>
          <span className={`input-author input-${entry.by}`}>{entry.by === 'agent' ? 'Agent' : 'You'}</span>{' '}
          <time className="muted">{formatTime(entry.at)}</time>{' '}
          {entry.hidden || entry.text === null ? (
            <em data-field="hidden-input">
              hidden ({entry.bytes} {entry.bytes === 1 ? 'byte' : 'bytes'}; the terminal was not echoing)
            </em>
          ) : (
            <code>{visibleKeys(entry.text)}</code>
          )}
          {entry.closeStdin && <span className="muted"> then end of input</span>}
        </li>
      ))}
    </ol>
  )
}
