import { z } from 'zod'
import { defineContract } from './define'
import { AboutSchema, NoticeSchema } from './domains/app'

const NoInput = z.object({}).strict()

/**
 * The one contract between the main process and every UI. Each request has an input and an output
 * schema and each event a payload schema; main validates inputs before any handler runs.
 */
export const contract = defineContract({
  requests: {
    /** Facts about this running instance for Settings → About. */
    'app.about': { input: NoInput, output: AboutSchema },
  },
  events: {
    /** Something the user should see that belongs to no single screen (e.g. a settings file was unreadable). */
    'app.notice': { payload: NoticeSchema },
  },
})

export type ShellgateContract = typeof contract
