/**
 * A schema problem in words a person reads next to the field: "Timeout must be between 1 second
 * and 60 minutes", not "Too big: expected number to be <=3600000". Messages a schema spells out
 * itself ("a rule cannot be empty") are kept as they are.
 */

interface IssueLike {
  code?: string
  path: ReadonlyArray<PropertyKey>
  message: string
  minimum?: unknown
  maximum?: unknown
  inclusive?: boolean
  origin?: string
  expected?: string
  values?: ReadonlyArray<unknown>
  keys?: ReadonlyArray<string>
}

interface SchemaLike {
  _zod?: { def?: { checks?: Array<{ _zod?: { def?: Record<string, unknown> } }> } }
  shape?: Record<string, SchemaLike>
  unwrap?: () => SchemaLike
}

const GENERATED = /^(Too small|Too big|Invalid input|Invalid option|Unrecognized key)/

/** defaultTimeoutMs → "Default timeout"; httpProxy → "Http proxy". */
export function fieldWords(path: ReadonlyArray<PropertyKey>): string {
  const last = String(path[path.length - 1] ?? 'value')
  const words = last
    .replace(/Ms$/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function isDuration(path: ReadonlyArray<PropertyKey>): boolean {
  const last = String(path[path.length - 1] ?? '')
  return /Ms$/.test(last) || last === 'timeout'
}

/** 1000 → "1 second", 3600000 → "60 minutes", 86400000 → "24 hours", 1 → "1 ms". */
export function formatDurationBound(ms: number): string {
  // [from, unit, name]: 60 minutes reads better than 1 hour next to "between 1 second and …".
  const units: Array<[number, number, string]> = [
    [7_200_000, 3_600_000, 'hour'],
    [60_000, 60_000, 'minute'],
    [1_000, 1_000, 'second'],
  ]
  for (const [from, unit, name] of units) {
    if (ms >= from && ms % unit === 0) {
      const n = ms / unit
      return `${n.toLocaleString('en')} ${name}${n === 1 ? '' : 's'}`
    }
  }
  return `${ms.toLocaleString('en')} ms`
}

function bound(value: number, path: ReadonlyArray<PropertyKey>): string {
  return isDuration(path) ? formatDurationBound(value) : value.toLocaleString('en')
}

/** The leaf schema's numeric bounds, as inclusive integers where they are integers. */
function boundsOf(schema: SchemaLike | undefined, path: ReadonlyArray<PropertyKey>) {
  let leaf = schema
  for (const key of path) {
    while (leaf?.unwrap && !leaf.shape) leaf = leaf.unwrap()
    leaf = leaf?.shape?.[String(key)]
  }
  while (leaf?.unwrap) leaf = leaf.unwrap()
  let min: number | undefined
  let max: number | undefined
  for (const check of leaf?._zod?.def?.checks ?? []) {
    const def = check._zod?.def ?? {}
    if (typeof def.value !== 'number') continue
    if (def.check === 'greater_than') min = def.inclusive ? def.value : def.value + 1
    if (def.check === 'less_than') max = def.inclusive ? def.value : def.value - 1
  }
  return { min, max }
}

export function plainIssue(issue: IssueLike, schema?: unknown): string {
  if (!GENERATED.test(issue.message)) return issue.message
  const field = fieldWords(issue.path)
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'string') {
        const n = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum)
        if (issue.code === 'too_small' && n <= 1) return `${field} cannot be empty`
        return `${field} must be at ${issue.code === 'too_big' ? 'most' : 'least'} ${n.toLocaleString('en')} characters`
      }
      if (issue.origin === 'array') {
        return `${field} can have at most ${Number(issue.maximum).toLocaleString('en')} entries`
      }
      const { min, max } = boundsOf(schema as SchemaLike, issue.path)
      if (min !== undefined && max !== undefined)
        return `${field} must be between ${bound(min, issue.path)} and ${bound(max, issue.path)}`
      if (issue.code === 'too_big')
        return `${field} must be at most ${bound(Number(issue.maximum), issue.path)}`
      const least = issue.inclusive === false ? Number(issue.minimum) + 1 : Number(issue.minimum)
      return `${field} must be at least ${bound(least, issue.path)}`
    }
    case 'invalid_type':
      if (issue.expected === 'int') return `${field} must be a whole number`
      return `${field} must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected ?? 'value of the right kind'}`
    case 'invalid_value':
      return `${field} must be one of ${(issue.values ?? []).map(String).join(', ')}`
    case 'unrecognized_keys':
      return `unknown ${issue.keys?.length === 1 ? 'field' : 'fields'} ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}`
    default:
      return issue.message
  }
}
