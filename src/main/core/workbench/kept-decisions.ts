import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { type KeptDecision, KeptDecisionSchema } from '../../../shared/ipc/domains/rules'
import { writeFileAtomic } from '../settings/atomic-write'
import type { TaskRegistry } from '../tasks/task-registry'

/** Far above what one person decides in a while; the oldest settled ones go first past it. */
export const KEPT_DECISIONS_MAX = 200
/** What a later run reads of a finished task's output when the task itself is gone (a restart). */
export const KEPT_OUTPUT_MAX_CHARS = 8_192
export const KEPT_DECISIONS_FILE = 'kept-decisions.json'

const KeptRecordSchema = KeptDecisionSchema.extend({
  /** How the task ended and the end of what it printed, once it did. */
  outcome: z
    .object({
      status: z.string(),
      exitCode: z.number().nullable(),
      outputTail: z.string().max(KEPT_OUTPUT_MAX_CHARS),
    })
    .nullable()
    .default(null),
})
export type KeptRecord = z.infer<typeof KeptRecordSchema>
const KeptFileSchema = z.object({ version: z.literal(1), decisions: z.array(KeptRecordSchema).max(10_000) })

export interface KeptDecisions {
  /** Newest first. */
  list(): KeptRecord[]
  get(taskId: string): KeptRecord | null
  /** Adds or updates one (by task id) and writes the file. */
  put(record: KeptRecord): Promise<void>
  update(taskId: string, change: Partial<KeptRecord>): Promise<void>
  /** The person forgets it; false when there was none. */
  clear(taskId: string): Promise<boolean>
}

/**
 * Issue 22.5: a task promised at the 45 s deadline, the person's answer and the task's outcome,
 * in SHELLGATE_HOME/kept-decisions.json, so a later run of the same agent in the same workspace
 * (after the first one quit, after a restart) reads what was decided. Written atomically, one
 * write at a time; a file that does not parse starts an empty list rather than stopping the hub.
 */
export async function openKeptDecisions(dataDir: string): Promise<KeptDecisions> {
  const file = join(dataDir, KEPT_DECISIONS_FILE)
  const records = new Map<string, KeptRecord>()
  const text = await readFile(file, 'utf8').catch(() => null)
  if (text !== null) {
    try {
      const parsed = KeptFileSchema.safeParse(JSON.parse(text))
      if (parsed.success)
        for (const record of parsed.data.decisions) {
          // A card does not outlive the hub: one still waiting when it stopped was never answered.
          const stale = record.state === 'waiting'
          records.set(
            record.taskId,
            stale
              ? {
                  ...record,
                  state: 'withdrawn',
                  message: 'Shellgate stopped before the person answered; nothing ran. Ask again.',
                }
              : record,
          )
        }
    } catch {
      // Unreadable: the decisions are lost, not the hub.
    }
  }
  let writes: Promise<void> = Promise.resolve()
  const persist = () => {
    bound()
    const data = `${JSON.stringify({ version: 1, decisions: [...records.values()] }, null, 2)}\n`
    writes = writes
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dataDir, { recursive: true, mode: 0o700 })
        await writeFileAtomic(file, data)
      })
    return writes
  }
  const bound = () => {
    const excess = records.size - KEPT_DECISIONS_MAX
    if (excess <= 0) return
    // Oldest first, settled ones before any still waiting for the person.
    const order = [...records.values()].sort(
      (a, b) =>
        Number(a.state === 'waiting') - Number(b.state === 'waiting') ||
        a.requestedAt.localeCompare(b.requestedAt),
    )
    for (const record of order.slice(0, excess)) records.delete(record.taskId)
  }
  return {
    list: () => [...records.values()].sort((a, b) => b.requestedAt.localeCompare(a.requestedAt)),
    get: (taskId) => records.get(taskId) ?? null,
    put(record) {
      records.set(record.taskId, KeptRecordSchema.parse(record))
      return persist()
    },
    async update(taskId, change) {
      const record = records.get(taskId)
      if (!record) return
      records.set(taskId, KeptRecordSchema.parse({ ...record, ...change }))
      await persist()
    },
    async clear(taskId) {
      if (!records.delete(taskId)) return false
      await persist()
      return true
    },
  }
}

/** When a kept task ends, its status, exit code and the end of its output are kept with the decision. */
export function keepTaskOutcomes(tasks: TaskRegistry, kept: KeptDecisions): () => void {
  return tasks.onEvent((event) => {
    if (event.type !== 'completed' || !kept.get(event.task.taskId)) return
    const { task } = event
    void tasks
      .readTail(task.taskId, task.sessionId, KEPT_OUTPUT_MAX_CHARS)
      .then((slice) => slice.text)
      .catch(() => '')
      .then((outputTail) =>
        kept.update(task.taskId, {
          outcome: {
            status: task.status,
            exitCode: task.exitCode,
            outputTail: outputTail.slice(-KEPT_OUTPUT_MAX_CHARS),
          },
        }),
      )
      .catch(() => undefined)
  })
}

/** The view the contract shows (without the stored output). */
export function keptView(record: KeptRecord): KeptDecision {
  const { outcome: _outcome, ...view } = record
  return view
}
