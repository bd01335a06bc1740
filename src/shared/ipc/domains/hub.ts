import { z } from 'zod'

/** What a hub says about itself; a client compares `hubId` with the one in run/hub.json. */
export const HubHelloSchema = z.object({
  hubId: z.string(),
  version: z.string(),
  /** The UI's address without any credential (a login address is minted separately). */
  uiUrl: z.string().nullable(),
})
export type HubHello = z.infer<typeof HubHelloSchema>

/** An address that lets one more browser in (the person's own UI asks; never an agent). */
export const UiAddressSchema = z.object({ url: z.string() })

/**
 * `hub.openUi`: the hub opened a fresh login address in the person's browser itself, so the code
 * never crossed the socket (whoever asked may be an agent). `url` is the bare origin.
 */
export const UiOpenedSchema = z.object({ opened: z.boolean(), url: z.string(), message: z.string() })
export type UiOpened = z.infer<typeof UiOpenedSchema>
