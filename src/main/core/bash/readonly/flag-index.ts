import type { CommandPolicy } from './flag-types'

/**
 * A table's long options, sorted once per table (not per call), so a written `--fi` finds every
 * option it abbreviates with a binary search.
 */
interface FlagIndex {
  /** Every long option the tool has, allowed or refused, sorted. */
  longOptions: string[]
  /** Long option → the first option of its alias group (`--colour` → `--color`). */
  aliasOf: ReadonlyMap<string, string>
  /** The tool's own options outside the table (policy.knownLongOptions). */
  known: ReadonlySet<string>
}

const INDEXES = new WeakMap<CommandPolicy, FlagIndex>()

function indexOf(policy: CommandPolicy): FlagIndex {
  let index = INDEXES.get(policy)
  if (!index) {
    const known = new Set(policy.knownLongOptions ?? [])
    // The tool's own list, when given, is every name a prefix can stand for.
    const names =
      known.size > 0
        ? known
        : new Set([...Object.keys(policy.flags), ...Object.keys(policy.refusedFlags ?? {})])
    const longOptions = [...names].filter((flag) => flag.startsWith('--')).sort()
    const aliasOf = new Map<string, string>()
    for (const group of policy.aliases ?? []) {
      const [first, ...rest] = group.split(/\s+/).filter(Boolean)
      if (first === undefined) continue
      for (const alias of rest) aliasOf.set(alias, first)
    }
    index = { longOptions, aliasOf, known }
    INDEXES.set(policy, index)
  }
  return index
}

export type LongResolution =
  | { kind: 'option'; name: string }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'unknown' }

/**
 * The option a written long name means, as GNU getopt_long reads it: the exact name, else the one
 * option it is an unambiguous prefix of (`--fi` for `--file`). Several options sharing the prefix
 * are ambiguous, unless the table says they are one option under two names (getopt then takes the
 * first). With `exactLongOptions` (tools with their own parser) only the exact name counts.
 */
export function resolveLongOption(policy: CommandPolicy, written: string): LongResolution {
  if (Object.hasOwn(policy.flags, written) || Object.hasOwn(policy.refusedFlags ?? {}, written))
    return { kind: 'option', name: written }
  if (policy.exactLongOptions) return { kind: 'unknown' }
  const { longOptions, aliasOf, known } = indexOf(policy)
  // Written in full, an option the table lacks is that option, never an abbreviation of a longer one.
  if (known.has(written)) return { kind: 'option', name: written }
  const candidates: string[] = []
  for (let at = firstAtOrAfter(longOptions, written); at < longOptions.length; at += 1) {
    const option = longOptions[at] as string
    if (!option.startsWith(written)) break
    candidates.push(option)
  }
  if (candidates.length === 0) return { kind: 'unknown' }
  const meanings = new Set(candidates.map((option) => aliasOf.get(option) ?? option))
  if (meanings.size === 1) return { kind: 'option', name: [...meanings][0] as string }
  return { kind: 'ambiguous', candidates }
}

/** Every long option of the table, allowed or refused, sorted (for tests and the facts). */
export function longOptionsOf(policy: CommandPolicy): readonly string[] {
  return indexOf(policy).longOptions
}

function firstAtOrAfter(sorted: readonly string[], value: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as string) < value) low = middle + 1
    else high = middle
  }
  return low
}
