import { z } from 'zod'
import { firstIssue, SettingsError } from './settings-error'

/** A partial update: nested objects merge, arrays and values replace, null clears an optional field. */
export type SettingsPatch<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[]
    ? T[K]
    : T[K] extends object | undefined
      ? SettingsPatch<NonNullable<T[K]>> | null
      : T[K] | null
}

/**
 * Merges `patch` into `current` and validates the whole result, so a bad patch throws a
 * SettingsError naming the field and the caller writes nothing.
 */
export function applySettingsPatch<T>(current: T, patch: unknown, schema: z.ZodType<T>): T {
  if (!isPlainObject(patch)) throw new SettingsError('', 'a settings patch must be a JSON object')
  rejectUnknownKeys(schema, patch, [])
  const merged = mergePatch(current as Record<string, unknown>, patch)
  const parsed = schema.safeParse(merged)
  if (!parsed.success) throw firstIssue(parsed.error, [], schema)
  return parsed.data
}

function mergePatch(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else if (isPlainObject(value) && isPlainObject(result[key])) result[key] = mergePatch(result[key], value)
    else result[key] = value
  }
  return result
}

/** zod strips unknown keys silently; a typo in a patch must instead say which field it does not know. */
function rejectUnknownKeys(schema: z.ZodType, value: unknown, path: string[]): void {
  const objectSchema = unwrap(schema)
  if (!(objectSchema instanceof z.ZodObject) || !isPlainObject(value)) return
  const shape = objectSchema.shape as Record<string, z.ZodType>
  for (const [key, child] of Object.entries(value)) {
    const field = [...path, key]
    if (!Object.hasOwn(shape, key)) throw new SettingsError(field.join('.'), 'is not a known setting')
    rejectUnknownKeys(shape[key]!, child, field)
  }
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional) {
    current = current.unwrap() as z.ZodType
  }
  return current
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
