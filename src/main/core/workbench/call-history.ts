import { appendFile, mkdir, open, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type BashCall, BashCallSchema } from '../../../shared/ipc/domains/bash'
import { writeFileAtomic } from '../settings/atomic-write'

/** The UI shows a session's recent calls; older ones stay only in the audit log. */
export const CALL_HISTORY_LIMIT = 500
/** Only the newest part of a history file is read; a file past this is rewritten to its last calls. */
export const CALL_HISTORY_READ_BYTES = 16 * 1024 * 1024

export interface CallHistory {
  list(): BashCall[]
  get(callId: string): BashCall | null
  /** Replaces the call with the same id, or appends it; a finished call is also written to disk. */
  put(call: BashCall): Promise<void>
  /** Deletes the history file (the session was closed). */
  remove(): Promise<void>
}

const UNFINISHED: ReadonlySet<BashCall['status']> = new Set(['waiting_for_approval', 'running'])

/**
 * One JSON line per finished call in `file`, so a session's history survives a restart. Lines that
 * do not parse (a crash mid-write, a hand edit) are skipped rather than losing the whole history.
 */
export async function openCallHistory(file: string): Promise<CallHistory> {
  const calls = new Map<string, BashCall>()
  const { text, lines } = await readTail(file)
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const parsed = BashCallSchema.safeParse(JSON.parse(line))
      if (parsed.success) calls.set(parsed.data.id, parsed.data)
    } catch {
      // A torn last line after a crash: the earlier lines still count.
    }
  }
  for (const id of [...calls.keys()].slice(0, Math.max(0, calls.size - CALL_HISTORY_LIMIT))) calls.delete(id)
  let writes: Promise<void> = Promise.resolve()
  // Appends never shrink the file: compact it here, keeping only what the UI can show.
  if (lines > 2 * CALL_HISTORY_LIMIT) {
    const kept = [...calls.values()]
    await writeFileAtomic(file, kept.map((call) => `${JSON.stringify(call)}\n`).join(''))
  }

  const trim = () => {
    const excess = calls.size - CALL_HISTORY_LIMIT
    if (excess <= 0) return
    for (const id of [...calls.keys()].slice(0, excess)) calls.delete(id)
  }

  return {
    list: () => [...calls.values()],
    get: (callId) => calls.get(callId) ?? null,
    async put(call) {
      calls.set(call.id, call)
      trim()
      if (UNFINISHED.has(call.status)) return
      writes = writes.then(async () => {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 })
        await appendFile(file, `${JSON.stringify(call)}\n`, { mode: 0o600 })
      })
      await writes
    },
    async remove() {
      await writes.catch(() => undefined)
      calls.clear()
      await rm(file, { force: true })
    },
  }
}

async function readTail(file: string): Promise<{ text: string; lines: number }> {
  const handle = await open(file, 'r').catch(() => null)
  if (!handle) return { text: '', lines: 0 }
  try {
    const { size } = await handle.stat()
    const length = Math.min(size, CALL_HISTORY_READ_BYTES)
    const buffer = Buffer.alloc(length)
    await handle.read(buffer, 0, length, size - length)
    let text = buffer.toString('utf8')
    // Started mid-file: the first line is a fragment.
    if (length < size) text = text.slice(text.indexOf('\n') + 1)
    const lines = length < size ? Number.POSITIVE_INFINITY : text.split('\n').filter(Boolean).length
    return { text, lines }
  } finally {
    await handle.close()
  }
}
