import { randomBytes, randomUUID } from 'node:crypto'
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseJsonQuietly, readOwnedFile, UnsafeFileError } from '../settings/owned-file'
import type { ShellFs, ShellSelection } from '../shell/types'
import { type SessionRecord, SessionIdSchema, SessionRecordSchema } from './session-record'
import { restoreSessionShell, type ShellRestore } from './session-shell'

export interface SessionStore {
  readonly dir: string
  /** A new session with its shell fixed now. */
  create(input: {
    workspace: string
    shell: ShellSelection
    id?: string
    title?: string
    agent?: { name: string; version: string | null }
    run?: SessionRecord['run']
    channels?: SessionRecord['channels']
  }): Promise<SessionRecord>
  /** Writes a changed record (ended, a new channel, its run), atomically. */
  save(record: SessionRecord): Promise<void>
  /** Deletes a closed session's record; false when there was none. */
  remove(id: string): Promise<boolean>
  /** Null when there is no such session; throws with the file name when the file is damaged. */
  load(id: string): Promise<SessionRecord | null>
  list(): Promise<SessionRecord[]>
  /**
   * Loads a session after a restart and settles its shell (restored / fallback / stale); a
   * fallback is written back, with its reminder, so the next restore is a plain restore.
   */
  restore(
    id: string,
    current: ShellSelection | null,
    options: { fs: ShellFs; platform: NodeJS.Platform },
  ): Promise<{ record: SessionRecord; restore: ShellRestore } | null>
}

/** Far above a real record (a shell, a few reminders); a bigger file is not one of ours. */
export const SESSION_FILE_MAX_BYTES = 256 * 1024

/**
 * Sessions under SHELLGATE_HOME/sessions, one JSON file each, written atomically. A symlink or
 * FIFO planted under a record's name is refused (never followed, never blocked on) and reported
 * through `onRefused`.
 */
export function createSessionStore(
  dataDir: string,
  now: () => Date = () => new Date(),
  options: { onRefused?: (message: string) => void } = {},
): SessionStore {
  const dir = join(dataDir, 'sessions')
  const fileOf = (id: string) => join(dir, `${SessionIdSchema.parse(id)}.json`)

  async function save(record: SessionRecord): Promise<void> {
    const valid = SessionRecordSchema.parse(record)
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const file = fileOf(valid.id)
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
    await writeFile(temp, `${JSON.stringify(valid, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
    try {
      await rename(temp, file)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }

  async function load(id: string): Promise<SessionRecord | null> {
    const file = fileOf(id)
    const content = await readOwnedFile(file, SESSION_FILE_MAX_BYTES).catch((error: unknown) => {
      if (error instanceof UnsafeFileError) {
        const message = `session file ${error.message}`
        options.onRefused?.(message)
        throw new Error(message)
      }
      throw error
    })
    if (content === null) return null
    const json = parseJsonQuietly(content.text)
    if (!json.ok) throw new Error(`session file ${file} ${json.reason}`)
    const parsed = SessionRecordSchema.safeParse(json.value)
    if (!parsed.success)
      throw new Error(`session file ${file} is damaged: ${parsed.error.issues[0]?.message}`)
    return parsed.data
  }

  return {
    dir,
    async create({ workspace, shell, id = randomUUID(), title, agent, run, channels }) {
      const record: SessionRecord = {
        version: 1,
        id,
        createdAt: now().toISOString(),
        workspace,
        ...(title ? { title } : {}),
        ...(agent ? { agent } : {}),
        shell,
        reminders: [],
        ...(run ? { run } : {}),
        ...(channels ? { channels } : {}),
      }
      await save(record)
      return record
    },
    save,
    load,
    async remove(id) {
      const file = fileOf(id)
      // lstat, not a read: whatever sits under the name (even a planted FIFO) is removed, not opened.
      const existed = await lstat(file).then(
        () => true,
        () => false,
      )
      await rm(file, { force: true })
      return existed
    },
    async list() {
      const names = await readdir(dir).catch(() => [] as string[])
      const records = await Promise.all(
        names
          .filter((n) => n.endsWith('.json'))
          .map((n) => load(n.slice(0, -'.json'.length)).catch(() => null)),
      )
      return records.filter((r): r is SessionRecord => r !== null)
    },
    async restore(id, current, options) {
      const record = await load(id)
      if (!record) return null
      const restore = restoreSessionShell(record.shell, current, options)
      if (restore.state !== 'fallback') return { record, restore }
      const updated: SessionRecord = {
        ...record,
        shell: restore.shell,
        reminders: restore.reminder ? [...record.reminders, restore.reminder] : record.reminders,
      }
      await save(updated)
      return { record: updated, restore }
    },
  }
}
