/** seed 003, 超时与后台: the per-call budget of a foreground Bash command. */

export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000
/** Added to the budget for the executor's own watchdog, so cleanup can finish first. */
export const BASH_WATCHDOG_GRACE_MS = 6_000

export interface TimeoutPolicy {
  defaultMs: number
  maxMs: number
}

/**
 * BASH_DEFAULT_TIMEOUT_MS and BASH_MAX_TIMEOUT_MS from the environment when they are positive whole
 * numbers, else `base` (the settings' limits); the maximum is never below the default.
 */
export function resolveTimeoutPolicy(
  env: Readonly<Record<string, string | undefined>>,
  base: TimeoutPolicy = { defaultMs: BASH_DEFAULT_TIMEOUT_MS, maxMs: BASH_MAX_TIMEOUT_MS },
): TimeoutPolicy {
  const defaultMs = positiveInteger(env.BASH_DEFAULT_TIMEOUT_MS) ?? base.defaultMs
  const maxMs = positiveInteger(env.BASH_MAX_TIMEOUT_MS) ?? base.maxMs
  return { defaultMs, maxMs: Math.max(maxMs, defaultMs) }
}

/** The requested timeout (0 or absent = the default), capped at the maximum. */
export function effectiveTimeoutMs(requested: number | undefined, policy: TimeoutPolicy): number {
  const wanted = requested === undefined || requested === 0 ? policy.defaultMs : requested
  return Math.min(wanted, policy.maxMs)
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined
  const number = Number(value)
  return number > 0 && Number.isSafeInteger(number) ? number : undefined
}
