import { z } from 'zod'

/** What a hub says about itself; a client compares `hubId` with the one in run/hub.json. */
export const HubHelloSchema = z.object({
  hubId: z.string(),
  version: z.string(),
  /** The UI's address without any credential (a login address is minted separately). */
  uiUrl: z.string().nullable(),
})
export type HubHello = z.infer<typeof HubHelloSchema>

/** An address that lets one more browser in (`shellgate ui`, a second `serve`). */
export const UiAddressSchema = z.object({ url: z.string() })
