import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'
import { HubError } from './hub-error'

/** run/hub.json: who the hub is. No secret: the UI address here is the bare origin. */
export interface HubInfo {
  hubId: string
  pid: number
  version: string
  uiUrl: string | null
  startedAt: string
  home: string
}

/** Far above a real hub.json; a planted multi-gigabyte file is refused before it is read. */
const MAX_INFO_BYTES = 16 * 1024

/**
 * Reads run/hub.json with the checks a hostile plant needs: no symlink, no FIFO (O_NONBLOCK, and a
 * regular-file check before reading), bounded size. The error says what is wrong, never what the
 * file says. Synchronous: a file under 16 KiB, read on every hook call, where asynchronous calls
 * would cost a thread pool and a loop turn each (issue 20.6).
 */
export function readHubInfo(file: string): HubInfo {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'is missing' : `cannot be opened (${code ?? 'error'})`
    throw new HubError('hub_malformed', `${file} ${why}, but a hub answers on the endpoint`)
  }
  let text: string
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) throw new HubError('hub_malformed', `${file} is not a regular file`)
    if (info.size > MAX_INFO_BYTES)
      throw new HubError('hub_malformed', `${file} is larger than ${MAX_INFO_BYTES} bytes`)
    text = readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new HubError('hub_malformed', `${file} is not valid JSON`)
  }
  const wrong = wrongField(json)
  if (wrong !== null)
    throw new HubError('hub_malformed', `${file} is not a hub endpoint file (${wrong} is wrong)`)
  return json as HubInfo
}

/**
 * The same checks as HubInfoSchema, by hand: this file is on the hook's path, which must not load
 * zod (issue 20: a hook costs what Node costs). hub-info.test keeps the two in step.
 */
export function wrongField(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'its shape'
  const info = json as Record<string, unknown>
  const text = (key: string, max: number) =>
    typeof info[key] === 'string' && (info[key] as string).length <= max
  const checks: Record<keyof HubInfo, boolean> = {
    hubId: typeof info.hubId === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(info.hubId),
    pid: typeof info.pid === 'number' && Number.isSafeInteger(info.pid) && info.pid > 0,
    version: text('version', 100),
    uiUrl:
      info.uiUrl === null ||
      (typeof info.uiUrl === 'string' && /^http:\/\/127\.0\.0\.1:\d{1,5}\/$/.test(info.uiUrl)),
    startedAt: text('startedAt', 64),
    home: text('home', 4_096),
  }
  const failed = (Object.keys(checks) as (keyof HubInfo)[]).find((key) => !checks[key])
  if (failed) return failed
  const extra = Object.keys(info).find((key) => !(key in checks))
  return extra ?? null
}
