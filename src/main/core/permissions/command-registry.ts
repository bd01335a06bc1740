import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The command registry generated from Fig's completion specs (scripts/command-registry). It answers
 * two questions for the "always allow" walk: is this word a subcommand here, and does this option
 * swallow the next word.
 */

type RawName = string | string[]
type RawNode = [name: RawName, options: string[], argFlags: number, subcommands: RawNode[]]

export interface RegistryOption {
  takesValue: boolean
  /** Valid on every subcommand below the node that declares it. */
  persistent: boolean
}

export interface RegistryNode {
  names: readonly string[]
  options: ReadonlyMap<string, RegistryOption>
  argFlags: number
  hasSubcommands: boolean
  subcommand(word: string): RegistryNode | undefined
}

export interface CommandRegistry {
  version: string
  root(name: string): RegistryNode | undefined
}

export const REGISTRY_FILE_NAME = 'command-registry.json'

/** Parses registry text; throws with the reason when it is not a registry. */
export function parseCommandRegistry(text: string): CommandRegistry {
  const data = JSON.parse(text) as { header?: { version?: unknown }; commands?: unknown }
  if (!data || typeof data.header?.version !== 'string' || !Array.isArray(data.commands)) {
    throw new Error('not a Shellgate command registry (expected {header:{version}, commands:[…]})')
  }
  const roots = new Map<string, RawNode>()
  for (const raw of data.commands as RawNode[]) for (const name of namesOf(raw[0])) roots.set(name, raw)
  const built = new Map<RawNode, RegistryNode>()
  const node = (raw: RawNode) => {
    let existing = built.get(raw)
    if (!existing) {
      existing = toNode(raw, node)
      built.set(raw, existing)
    }
    return existing
  }
  return {
    version: data.header.version,
    root: (name) => {
      const raw = roots.get(name)
      return raw ? node(raw) : undefined
    },
  }
}

function toNode(raw: RawNode, node: (raw: RawNode) => RegistryNode): RegistryNode {
  const options = new Map<string, RegistryOption>()
  for (const spelled of raw[1]) {
    const persistent = spelled.startsWith('^')
    const takesValue = spelled.endsWith('=')
    options.set(spelled.slice(persistent ? 1 : 0, takesValue ? -1 : undefined), { takesValue, persistent })
  }
  const children = raw[3]
  return {
    names: namesOf(raw[0]),
    options,
    argFlags: raw[2],
    hasSubcommands: children.length > 0,
    subcommand: (word) => {
      const child = children.find((candidate) => namesOf(candidate[0]).includes(word))
      return child ? node(child) : undefined
    },
  }
}

function namesOf(name: RawName): string[] {
  return typeof name === 'string' ? [name] : name
}

const cache = new Map<string, CommandRegistry>()

/** Loads (once per path) the registry file; synchronous because a decision must not wait on I/O twice. */
export function loadCommandRegistry(path: string = defaultCommandRegistryPath()): CommandRegistry {
  let registry = cache.get(path)
  if (!registry) {
    registry = parseCommandRegistry(readFileSync(path, 'utf8'))
    cache.set(path, registry)
  }
  return registry
}

/** resources/command-registry.json, found by walking up from this module (source tree or build output). */
export function defaultCommandRegistryPath(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'resources', REGISTRY_FILE_NAME)
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) throw new Error(`resources/${REGISTRY_FILE_NAME} not found above ${from}`)
  }
}
