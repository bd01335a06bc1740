import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { z } from 'zod'
import { writeFileAtomic } from '../core/settings/atomic-write'
import { HubError } from './hub-error'

/** run/hub.json: who the hub is. No secret: the UI address here is the bare origin. */
export const HubInfoSchema = z
  .object({
    hubId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
    pid: z.number().int().positive(),
    version: z.string().max(100),
    uiUrl: z
      .string()
      .regex(/^http:\/\/127\.0\.0\.1:\d{1,5}\/$/)
      .nullable(),
    startedAt: z.string().max(64),
    home: z.string().max(4_096),
  })
  .strict()
export type HubInfo = z.infer<typeof HubInfoSchema>

/** Far above a real hub.json; a planted multi-gigabyte file is refused before it is read. */
const MAX_INFO_BYTES = 16 * 1024

export async function writeHubInfo(file: string, info: HubInfo): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(HubInfoSchema.parse(info), null, 2)}\n`)
}

/**
 * Reads run/hub.json with the checks a hostile plant needs: no symlink, no FIFO (O_NONBLOCK, and a
 * regular-file check before reading), bounded size. The error says what is wrong, never what the
 * file says.
 */
export async function readHubInfo(file: string): Promise<HubInfo> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? 'is missing' : `cannot be opened (${error.code ?? 'error'})`
      throw new HubError('hub_malformed', `${file} ${why}, but a hub answers on the endpoint`)
    },
  )
  let text: string
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new HubError('hub_malformed', `${file} is not a regular file`)
    if (info.size > MAX_INFO_BYTES)
      throw new HubError('hub_malformed', `${file} is larger than ${MAX_INFO_BYTES} bytes`)
    text = await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new HubError('hub_malformed', `${file} is not valid JSON`)
  }
  const parsed = HubInfoSchema.safeParse(json)
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.map(String).join('.') || 'its shape'
    throw new HubError('hub_malformed', `${file} is not a hub endpoint file (${where} is wrong)`)
  }
  return parsed.data
}
