/**
 * When a `gh` call hits GitHub's rate limit, tell the model the quota is shared and how to wait
 * (seed 003, bash-gh-rate-limit) — once per minute per process, so a retry loop is not flooded.
 */

export const GH_RATE_LIMIT_HINT_INTERVAL_MS = 60_000

/** gh subcommands that never call the API. */
const OFFLINE_SUBCOMMANDS = new Set(['auth', 'help', 'version', 'alias', 'completion', 'config'])
const RATE_LIMITED = /API rate limit exceeded|secondary rate limit|rate limit exceeded|HTTP 429/i

export const GH_RATE_LIMIT_HINT =
  '<system-reminder>GitHub API rate limit reached. The 5000 requests per hour quota is shared by every ' +
  'tool and agent using this GitHub account, so retrying right away will fail again. Run ' +
  '`gh api rate_limit` to see when the limit resets, then wait until that time before calling gh again.' +
  '</system-reminder>'

export interface GhRateLimitNotifier {
  /** The hint when this command is a gh API call whose output shows a rate limit and none was given in the last minute. */
  hintFor(commandArgvs: ReadonlyArray<readonly string[] | null>, output: string): string | null
}

export function createGhRateLimitNotifier(now: () => number = Date.now): GhRateLimitNotifier {
  let lastHintAt: number | null = null
  return {
    hintFor(commandArgvs, output) {
      if (!commandArgvs.some(isGhApiCall) || !RATE_LIMITED.test(output)) return null
      const at = now()
      if (lastHintAt !== null && at - lastHintAt < GH_RATE_LIMIT_HINT_INTERVAL_MS) return null
      lastHintAt = at
      return GH_RATE_LIMIT_HINT
    },
  }
}

function isGhApiCall(argv: readonly string[] | null): boolean {
  if (argv === null || argv[0] !== 'gh') return false
  const sub = argv[1]
  return sub === undefined || !OFFLINE_SUBCOMMANDS.has(sub)
}
