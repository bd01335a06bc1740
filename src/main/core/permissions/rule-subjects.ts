import type { CommandPart, CommandVerdict } from '../bash/verdict'
import type { CommandRegistry } from './command-registry'
import { unwrapCommand, SUGGESTION_WRAPPER_DEPTH } from './command-wrappers'
import { splitRuleWords } from './command-words'
import { nestedCommands } from './nested-commands'
import { restrictingForms } from './restricting-forms'
import { resolveStablePrefix } from './stable-prefix'

/**
 * What rules are matched against (seed 003, 规则匹配的主语): each simple command's words, and the
 * action path the "always allow" suggestion would have named, so `git commit:*` covers
 * `git -C sub commit -m x` exactly as suggested.
 */

/** Assignments that only change formatting or locale; any other assignment stays part of the subject. */
const COSMETIC_ENV =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|COLUMNS|LINES|CI|GIT_TERMINAL_PROMPT)$/

/** Deny and ask rules look through every wrapper layer, not just the two a suggestion strips. */
const RESTRICT_WRAPPER_DEPTH = 8

export interface PartSubject {
  index: number
  part: CommandPart
  /** The words a rule is compared with; from argv when static, else a best-effort split of the text. */
  words: string[]
  /** True when `words` came from a static argv. */
  static: boolean
  /** Wrapper words + stable prefix; null when there is none. */
  actionPath: string[] | null
  /**
   * For deny and ask rules: the command behind every wrapper (`sudo nohup rm -rf x` → `rm -rf x`)
   * and every command it starts (`bash -c`, `xargs`, `find -exec`…), each as words, and each also
   * by its base name and without its global options (`/usr/bin/git -c a=b push` → `git push`).
   */
  inner: string[][]
}

export interface CommandSubjects {
  command: string
  permissionSafe: boolean
  /** Null when prefix and wildcard allow rules may match; otherwise why only an exact rule can. */
  exactOnlyReason: string | null
  parts: PartSubject[]
}

export function commandSubjects(verdict: CommandVerdict, registry: CommandRegistry): CommandSubjects {
  const parts = verdict.parts.map((part, index) => partSubject(part, index, registry))
  return {
    command: verdict.command.trim(),
    permissionSafe: verdict.permissionSafe,
    exactOnlyReason: exactOnlyReason(verdict),
    parts,
  }
}

/** seed 003: not permission-safe, a redirect, or a non-static env assignment → exact rules only. */
function exactOnlyReason(verdict: CommandVerdict): string | null {
  if (!verdict.permissionSafe) return `the command is not permission-safe (${verdict.reason})`
  if (verdict.parts.length === 0) return 'the command has no simple commands to match'
  for (const part of verdict.parts) {
    if (part.argv === null) return `"${part.text}" has a dynamic word`
    const redirect = part.redirects.find((r) => !isDescriptorOnlyRedirect(r.operator, r.target))
    if (redirect) return `"${part.text}" has a redirect (${redirect.operator})`
    if (part.envAssignments.some((env) => env.value === null))
      return `"${part.text}" has a non-static env assignment`
  }
  return null
}

/**
 * Beyond the seed: `2>&1`, `>&2` and writes to /dev/null touch no file, and agents append them to
 * almost every command; refusing prefix rules for them would make every such command ask.
 */
function isDescriptorOnlyRedirect(operator: string, target: string | null): boolean {
  if (target === null) return false
  if (/^\d*>&$|^\d*<&$/.test(operator) && /^(\d+|-)$/.test(target)) return true
  return /^(\d*>|\d*>>|\d*>\||&>|&>>)$/.test(operator) && target === '/dev/null'
}

function partSubject(part: CommandPart, index: number, registry: CommandRegistry): PartSubject {
  const fromArgv = part.argv !== null && part.envAssignments.every((env) => env.value !== null)
  const words = fromArgv ? subjectWords(part) : textWords(part.text)
  const envWords = fromArgv ? words.length - (part.argv?.length ?? 0) : 0
  const command = words.slice(envWords)
  const unwrappedForAction = fromArgv ? unwrapCommand(command, SUGGESTION_WRAPPER_DEPTH) : null
  const prefix = unwrappedForAction ? resolveStablePrefix(unwrappedForAction.argv, registry) : null
  const deep = unwrapCommand(command, RESTRICT_WRAPPER_DEPTH)
  return {
    index,
    part,
    words,
    static: fromArgv,
    actionPath:
      unwrappedForAction && prefix
        ? [...words.slice(0, envWords), ...unwrappedForAction.wrapperWords, ...prefix]
        : null,
    inner: [
      command,
      ...innerCommands(
        envWords > 0 || (deep && deep.wrapperWords.length > 0) ? (deep?.argv ?? command) : null,
        command,
      ),
    ].flatMap((argv) => restrictingForms(argv, registry)),
  }
}

function innerCommands(unwrapped: string[] | null, command: string[]): string[][] {
  const inner = unwrapped ? [unwrapped] : []
  // `sudo bash -c 'rm x'`: what the unwrapped command starts counts too; so does what the command
  // itself starts, read by the wrapper grammar (which reads unknown wrapper options both ways).
  const starters = unwrapped && unwrapped !== command ? [unwrapped, command] : [command]
  for (const nested of starters.flatMap((argv) => nestedCommands(argv))) {
    const deep = unwrapCommand(nested, RESTRICT_WRAPPER_DEPTH)
    inner.push(nested)
    if (deep && deep.wrapperWords.length > 0) inner.push(deep.argv)
  }
  return inner
}

/** argv with the assignments that matter in front: `NODE_OPTIONS=… npm test` is not `npm test`. */
function subjectWords(part: CommandPart): string[] {
  const env = part.envAssignments
    .filter((assignment) => !COSMETIC_ENV.test(assignment.name))
    .map((assignment) => `${assignment.name}=${assignment.value}`)
  return [...env, ...(part.argv ?? [])]
}

/** For deny and ask only: a dynamic command's words as written, leading assignments dropped. */
function textWords(text: string): string[] {
  const words = splitRuleWords(text) ?? text.split(/\s+/).filter(Boolean)
  const first = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))
  return first === -1 ? [] : words.slice(first)
}
