import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { RuleOfferSchema } from '../../../shared/ipc/domains/rules'
import { writeFileAtomic } from '../settings/atomic-write'
import { loadSettingsFile } from '../settings/settings-file'

/**
 * Issue 22.8: how often the person allowed each command shape, kept in
 * SHELLGATE_HOME/rule-offer-counts.json so "allowed N times, never denied" counts across restarts
 * (three allows on Monday and one on Tuesday are a habit too), and an offer not yet answered is
 * still there after one.
 */
export const RULE_OFFER_COUNTS_FILE = 'rule-offer-counts.json'
/** Shapes tracked per hub; the least recently allowed go first past this. */
export const MAX_TRACKED_SHAPES = 500
/** The commands an offer shows as what the rule would have answered. */
export const OFFER_EXAMPLES = 5
/** An example is shown, not run: its start says enough, and 500 shapes stay far below the 1 MiB file cap. */
export const OFFER_EXAMPLE_MAX_CHARS = 200
/** A rule longer than this is one command, not a habit worth offering; it also bounds the file. */
export const OFFER_RULE_MAX_CHARS = 400

const ShapeSchema = z.object({
  workspace: z.string().max(4_096),
  rule: z.string().max(OFFER_RULE_MAX_CHARS),
  allowed: z.number().int().nonnegative(),
  /** The person denied one of this shape here: never offered. */
  denied: z.boolean(),
  /** Offered, accepted or dismissed: not offered again. */
  done: z.boolean(),
  examples: z.array(z.string().max(OFFER_EXAMPLE_MAX_CHARS + 1)).max(OFFER_EXAMPLES),
  lastAllowedAt: z.string(),
})
export type Shape = z.infer<typeof ShapeSchema>

const CountsFileSchema = z
  .object({
    version: z.literal(1).default(1),
    /** Least recently allowed first, as the bound drops them. */
    shapes: z.array(ShapeSchema).max(MAX_TRACKED_SHAPES).default([]),
    /** Offers made and not yet accepted or dismissed, oldest first. */
    offers: z.array(RuleOfferSchema).max(MAX_TRACKED_SHAPES).default([]),
  })
  .strict()
export type RuleOfferCounts = z.infer<typeof CountsFileSchema>

export interface RuleOfferCountsFile {
  loaded: RuleOfferCounts
  /** Queues a write of this state; writes happen one at a time, the last one wins. */
  save(state: RuleOfferCounts): Promise<void>
  /** Resolves when every queued write has finished. */
  flushed(): Promise<void>
}

/**
 * Opens the counts file. One that is not usable (not JSON, not this shape, too big) is moved aside
 * as `.bak` with a warning and counting starts again: the counts are a convenience, never a reason
 * to stop the hub.
 */
export async function openRuleOfferCounts(
  dataDir: string,
  onProblem: (message: string) => void,
): Promise<RuleOfferCountsFile> {
  const file = join(dataDir, RULE_OFFER_COUNTS_FILE)
  const { value, warning } = await loadSettingsFile(file, CountsFileSchema)
  if (warning)
    onProblem(
      `Rule offer counts (${file}): ${warning.reason}${warning.backupPath ? `; kept as ${warning.backupPath}` : ''}. Counting starts again.`,
    )
  // A file that could not be moved aside is never overwritten: the person may want it back.
  const writable = warning === null || warning.backupPath !== null
  let writes: Promise<void> = Promise.resolve()
  return {
    loaded: value,
    save(state) {
      if (!writable) return writes
      const data = `${JSON.stringify(CountsFileSchema.parse(state), null, 2)}\n`
      writes = writes
        .catch(() => undefined)
        .then(async () => {
          await mkdir(dataDir, { recursive: true, mode: 0o700 })
          await writeFileAtomic(file, data)
        })
        .catch((error: Error) =>
          onProblem(`Rule offer counts could not be saved (${file}): ${error.message}`),
        )
      return writes
    },
    flushed: () => writes,
  }
}

/** What an example keeps of a command. */
export function exampleOf(command: string): string {
  return command.length > OFFER_EXAMPLE_MAX_CHARS ? `${command.slice(0, OFFER_EXAMPLE_MAX_CHARS)}…` : command
}
