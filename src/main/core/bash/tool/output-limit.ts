/** seed 003 输出: how much of a Bash command's output the model sees inline. */

export const BASH_MAX_OUTPUT_LENGTH = 30_000
/** BASH_MAX_OUTPUT_LENGTH may raise the inline part to this many bytes, never further. */
export const BASH_MAX_OUTPUT_LENGTH_CEILING = 150_000
/** Characters of the persisted output shown in the envelope. */
export const PERSISTED_PREVIEW_CHARS = 2_000

/** BASH_MAX_OUTPUT_LENGTH when it is a positive whole number, else `base` (the settings' limit). */
export function resolveMaxOutputLength(
  env: Readonly<Record<string, string | undefined>>,
  base: number = BASH_MAX_OUTPUT_LENGTH,
): number {
  const raw = env.BASH_MAX_OUTPUT_LENGTH
  const value = raw !== undefined && /^\s*\d+\s*$/.test(raw) ? Number(raw) : 0
  return Math.min(value > 0 ? value : base, BASH_MAX_OUTPUT_LENGTH_CEILING)
}
