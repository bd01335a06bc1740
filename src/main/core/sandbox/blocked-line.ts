import { lstatSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { isHomeSecret } from '../secrets/home-secrets'
import { isSecretFileName } from '../secrets/secret-file-names'
import type { EgressDecision } from './egress-policy'
import { isInside } from './host-paths'
import { networkBlockedLine } from './network-blocked-line'
import type { ExecutionSandbox } from './types'

export interface BlockedLineInput {
  sandbox: ExecutionSandbox
  /** The tail of what the command printed (stdout and stderr together). */
  output: string
  exitCode: number | null
  /** What the network proxy and the port forwarders refused during this run. */
  refused: EgressDecision[]
  home: string
}

const READ_ONLY_FS = /(?:['‘`"]?)(\/[^\s'’`":]*)(?:['’`"]?)?[^\n]*?:\s*Read-only file system/
/** A read-only verdict never shows a card, so the way on is a rule that makes the person decide. */
const READ_ONLY_FURTHER =
  'To go further, the person can add an ask rule for it (Settings → Permissions) and approve it, in its sandbox or unsandboxed.'

/**
 * One plain line for a command that failed because of the sandbox, saying what was blocked and how
 * to go further; null when the failure does not look like the sandbox's doing. Read from the
 * output text and the profile, since a process reports EROFS or ENETUNREACH only as text.
 */
export function sandboxBlockedLine(input: BlockedLineInput): string | null {
  const { sandbox, output } = input
  const further =
    sandbox.profile === 'read-only' ? READ_ONLY_FURTHER : 'To go further, approve the command unsandboxed.'
  // A hidden secret the command tried to open is said even when the command went on and succeeded
  // (`grep -r KEY .` prints the denied file and exits 0 when it found KEY elsewhere).
  const hiddenRead = hiddenEntry(input)
  if (hiddenRead && /Permission denied/.test(output)) {
    return `blocked by the sandbox: ${tilde(hiddenRead.path, input.home)} is hidden from sandboxed commands. ${further}`
  }
  if (input.exitCode === 0) return null
  // bwrap found a destination leading elsewhere than the descriptor it was given (pinned-sources).
  if (/^bwrap: Race condition binding dirfd/m.test(output))
    return 'blocked by the sandbox: a folder it mounts was swapped for a link while the sandbox started, so the command was not run (another command running in this workspace may be trying to reach outside its sandbox). Run it again once nothing else runs here, and look at what the other command did.'
  if (input.refused.length > 0) return networkBlockedLine({ sandbox, output, refused: input.refused })
  const written = READ_ONLY_FS.exec(output)
  if (written) return writeLine(sandbox, written[1]!, input.home)
  const network = networkBlockedLine({ sandbox, output, refused: [] })
  if (network) return network
  const hidden = hiddenRead
  if (hidden && READ_FAILED.test(output)) {
    return `blocked by the sandbox: ${tilde(hidden.path, input.home)} is hidden from sandboxed commands. ${further}`
  }
  for (const path of failedReads(output, input.home)) {
    const shown = tilde(path, input.home)
    if (isInside(path, input.home) && path !== input.home) {
      const relativePath = relative(input.home, path)
      if (isHomeSecret(relativePath) || isSecretFileName(basename(path))) {
        return `blocked by the sandbox: ${shown} is a secret, never mounted in the sandbox. ${further}`
      }
    }
    if (mounted(sandbox).some((root) => isInside(path, root))) continue
    // A file being made in a folder that is not mounted: the folder is there on the host, the file not yet.
    if (!existsOnHost(path)) {
      if (existsOnHost(dirname(path)) && WRITE_VERB.test(output)) return writeLine(sandbox, path, input.home)
      continue
    }
    return `blocked by the sandbox: ${shown} is not mounted (reads are denied by default outside the workspace, the system folders, the toolchains on PATH and the folders added in Settings → Sandbox → readable folders). To go further, add its folder there, or approve the command unsandboxed.`
  }
  return null
}

/** The hidden entry the output names: absolute, from ~, or relative to the workspace (`grep -r` prints ./apps/.env). */
function hiddenEntry(input: BlockedLineInput) {
  const { sandbox, output } = input
  return sandbox.hidden.find(
    (entry) =>
      output.includes(entry.path) ||
      output.includes(tilde(entry.path, input.home)) ||
      (inside(entry.path, sandbox.workspace) &&
        entry.path !== sandbox.workspace &&
        output.includes(relative(sandbox.workspace, entry.path))),
  )
}

/** A failure to make a file: touch, cp, mkdir, tee, or a shell's own redirection (`bash: line 1: /x: …`). */
const WRITE_VERB =
  /cannot (?:touch|create|make|open [^\n]* for writing)|can't create|^mkdir:|^tee:|^(?:\S*\/)?(?:ba|z|da)?sh: (?:line \d+: )?\//m

const READ_FAILED = /No such file or directory|Permission denied|Read-only file system/
/** Paths on lines that say a read failed: `cat: /x/y: No such file…`, `ls: cannot access '/x/y': …`. */
const FAILED_PATH =
  /(?:['‘`"]((?:~|\/)[^'’`"\n]*)['’`"]|(?:^|\s)((?:~|\/)[^\s:]*)): (?:No such file or directory|Permission denied)/gm

function failedReads(output: string, home: string): string[] {
  const paths = new Set<string>()
  for (const match of output.matchAll(FAILED_PATH)) {
    const raw = (match[1] ?? match[2])!
    paths.add(raw.startsWith('~') ? join(home, raw.slice(2)) : raw)
  }
  return [...paths]
}

/** Where the sandbox mounts the host (an emptied home folder is not: nothing of the host is in it). */
function mounted(sandbox: ExecutionSandbox): string[] {
  return [
    sandbox.workspace,
    ...sandbox.readable.map((entry) => entry.path),
    ...sandbox.symlinks.map((link) => link.path),
    ...sandbox.writableRoots,
    ...sandbox.privateCaches.map((cache) => cache.path),
    ...sandbox.exposed.map((entry) => entry.path),
    ...sandbox.allowedSockets,
    '/tmp',
    '/dev',
    '/proc',
  ]
}

function existsOnHost(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined
}

function writeLine(sandbox: ExecutionSandbox, path: string, home: string): string {
  const shown = tilde(path, home)
  const further = 'To go further, approve the command unsandboxed.'
  if (sandbox.hidden.some((entry) => inside(path, entry.path))) {
    return `blocked by the sandbox: ${shown} is hidden from sandboxed commands. ${further}`
  }
  if (sandbox.profile === 'read-only') {
    return `blocked by the sandbox: this command ran without asking, in the read-only profile, so it cannot write (${shown}). ${READ_ONLY_FURTHER}`
  }
  if (sandbox.protectedPaths.some((entry) => inside(path, entry))) {
    return `blocked by the sandbox: ${shown} stays read-only even inside the workspace. ${further}`
  }
  return `blocked by the sandbox: write outside the workspace (${shown}). ${further}`
}

function inside(path: string, root: string): boolean {
  return isInside(path, root)
}

function tilde(path: string, home: string): string {
  return inside(path, home) && path !== home ? `~/${relative(home, path)}` : path
}
