import { z } from 'zod'
import { writeFileAtomic } from '../core/settings/atomic-write'
import type { HubInfo } from './hub-info-read'

export { type HubInfo, readHubInfo } from './hub-info-read'

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
  .strict() satisfies z.ZodType<HubInfo>

export async function writeHubInfo(file: string, info: HubInfo): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(HubInfoSchema.parse(info), null, 2)}\n`)
}
