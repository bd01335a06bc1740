/**
 * Compacts one Fig completion spec into the registry's four-tuple
 * `[name, options, argFlags, subcommands]`, keeping only what the "always allow" prefix walk needs:
 * which words are subcommands and which options swallow the next word.
 */

/** A Fig name: one string or a list of aliases. */
type FigName = string | string[]

interface FigArg {
  name?: string
  isCommand?: boolean
  isModule?: string | boolean
  isVariadic?: boolean
  isOptional?: boolean
  isDangerous?: boolean
  template?: string | string[]
}

interface FigOption {
  name: FigName
  args?: FigArg | FigArg[]
  isPersistent?: boolean
}

export interface FigSubcommand {
  name: FigName
  options?: FigOption[]
  args?: FigArg | FigArg[]
  subcommands?: FigSubcommand[] | unknown
  loadSpec?: unknown
}

/** Bits of the argFlags field; the walk reads COMMAND and MODULE, the rest documents the spec. */
export const ARG_FLAG = {
  command: 1,
  module: 2,
  variadic: 4,
  optional: 8,
  dangerous: 16,
  file: 32,
  folder: 64,
} as const

/**
 * An option as one string: `=` at the end when it always takes a value (so the walk skips the next
 * word), `^` in front when it is persistent (valid on every subcommand below it).
 */
export type CompactOption = string

export type CompactNode = [
  name: FigName,
  options: CompactOption[],
  argFlags: number,
  subcommands: CompactNode[],
]

export interface CompactStats {
  skippedLoadSpec: number
  skippedDynamic: number
}

export function compactSpec(node: FigSubcommand, stats: CompactStats): CompactNode {
  return [
    normaliseName(node.name),
    compactOptions(node.options),
    argFlags(node.args),
    compactChildren(node, stats),
  ]
}

function compactChildren(node: FigSubcommand, stats: CompactStats): CompactNode[] {
  const children = node.subcommands
  if (children === undefined) return []
  // A function (or anything else that is not a list) is computed at completion time: unknowable here.
  if (!Array.isArray(children)) {
    stats.skippedDynamic += 1
    return []
  }
  const out: CompactNode[] = []
  for (const child of children as FigSubcommand[]) {
    if (!child || typeof child !== 'object' || !isFigName(child.name)) {
      stats.skippedDynamic += 1
      continue
    }
    // A loadSpec-only node points at another spec file; its contents are not in this one.
    if (child.loadSpec !== undefined && child.subcommands === undefined && child.options === undefined) {
      stats.skippedLoadSpec += 1
      continue
    }
    out.push(compactSpec(child, stats))
  }
  return out.sort(compareNodes)
}

function compactOptions(options: FigOption[] | undefined): CompactOption[] {
  if (!Array.isArray(options)) return []
  const out = new Set<CompactOption>()
  for (const option of options) {
    if (!option || !isFigName(option.name)) continue
    const takesValue = optionTakesValue(option.args)
    const persistent = option.isPersistent === true ? '^' : ''
    for (const name of namesOf(option.name)) out.add(`${persistent}${name}${takesValue ? '=' : ''}`)
  }
  return [...out].sort()
}

/** A value only counts when it is required: an optional one may or may not follow. */
function optionTakesValue(args: FigArg | FigArg[] | undefined): boolean {
  if (args === undefined) return false
  const list = Array.isArray(args) ? args : [args]
  return list.length > 0 && list[0] !== undefined && list[0].isOptional !== true
}

function argFlags(args: FigArg | FigArg[] | undefined): number {
  if (args === undefined) return 0
  let flags = 0
  for (const arg of Array.isArray(args) ? args : [args]) {
    if (!arg || typeof arg !== 'object') continue
    if (arg.isCommand) flags |= ARG_FLAG.command
    if (arg.isModule) flags |= ARG_FLAG.module
    if (arg.isVariadic) flags |= ARG_FLAG.variadic
    if (arg.isOptional) flags |= ARG_FLAG.optional
    if (arg.isDangerous) flags |= ARG_FLAG.dangerous
    const templates = arg.template === undefined ? [] : [arg.template].flat()
    if (templates.includes('filepaths')) flags |= ARG_FLAG.file
    if (templates.includes('folders')) flags |= ARG_FLAG.folder
  }
  return flags
}

function isFigName(name: unknown): name is FigName {
  return typeof name === 'string' || (Array.isArray(name) && name.every((n) => typeof n === 'string'))
}

function namesOf(name: FigName): string[] {
  return typeof name === 'string' ? [name] : name
}

function normaliseName(name: FigName): FigName {
  return typeof name === 'string' || name.length !== 1 ? name : (name[0] ?? '')
}

export function compareNodes(a: CompactNode, b: CompactNode): number {
  const left = namesOf(a[0]).join(',')
  const right = namesOf(b[0]).join(',')
  return left < right ? -1 : left > right ? 1 : 0
}
