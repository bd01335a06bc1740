import { win32 } from 'node:path'
import type { ExecutionSandbox } from '../sandbox/types'
import { wrapSpawnPlan } from '../sandbox/wrap-plan'
import type { ExecutionCommand } from './types'
import {
  cmdScriptInvocation,
  cmdShellInvocation,
  comSpec,
  refuseArgumentLineBreaks,
} from './windows-cmd-line'
import { type IsFile, isRegularFile, resolveWindowsExecutable } from './windows-executable'

/** Exactly what is handed to spawn: the file, its argv and whether Node must leave the argv alone. */
export interface SpawnPlan {
  file: string
  args: string[]
  windowsVerbatimArguments: boolean
  /** Descriptors of this process the child gets as 3, 4, … (a sandbox's pinned mount sources). */
  inheritFds?: readonly number[]
}

export interface SpawnPlanContext {
  platform: NodeJS.Platform
  env: Record<string, string | undefined>
  cwd: string
  isFile?: IsFile
  /** When set, the plan is handed to the sandbox room and its wrapped plan is what is spawned. */
  sandbox?: ExecutionSandbox
}

/**
 * argv: POSIX spawns the file directly; win32 resolves PATH + PATHEXT, runs .exe directly and
 * .cmd/.bat through ComSpec. shell: the shell with `-c` (cmd: `/d /s /c`). The port adds no other
 * shell logic: snapshot sourcing, startup scripts and cwd capture belong to whoever builds `command`.
 */
export function planSpawn(command: ExecutionCommand, context: SpawnPlanContext): SpawnPlan {
  const plan = planUnwrapped(command, context)
  return context.sandbox ? wrapSpawnPlan(plan, context.sandbox, context) : plan
}

function planUnwrapped(command: ExecutionCommand, context: SpawnPlanContext): SpawnPlan {
  if (command.mode === 'argv') return planArgv(command.file, command.args, context)
  const shell = command.shell ?? defaultShell(command.shellProfile, context)
  if (context.platform === 'win32' && /^cmd(\.exe)?$/i.test(win32.basename(shell))) {
    return cmdShellInvocation(command.command, shell)
  }
  return { file: shell, args: ['-c', command.command], windowsVerbatimArguments: false }
}

function planArgv(file: string, args: string[], context: SpawnPlanContext): SpawnPlan {
  if (context.platform !== 'win32') return { file, args, windowsVerbatimArguments: false }
  const resolved = resolveWindowsExecutable(file, context.env, context.cwd, context.isFile ?? isRegularFile)
  // Windows would look an unresolved bare name up in the cwd first: never hand it one. Not found
  // is the same outcome as POSIX's ENOENT (a spawn_error result), not bad input (issue 24.1).
  if (resolved === null && isBareName(file)) {
    throw new ProgramNotFoundError(
      `"${file}" was not found in any absolute PATH directory; a bare name is never spawned unresolved on Windows, which would search the current directory first`,
    )
  }
  if (resolved && /\.(cmd|bat)$/i.test(resolved)) return cmdScriptInvocation(resolved, args, context.env)
  // cmd.exe named directly parses its own command line just as it does a script's (issue 15.10).
  if (/^cmd(\.exe)?$/i.test(win32.basename(resolved ?? file)))
    refuseArgumentLineBreaks(resolved ?? file, args)
  return { file: resolved ?? file, args, windowsVerbatimArguments: false }
}

/** The program named by a bare name is on no usable PATH entry: nothing was spawned. */
export class ProgramNotFoundError extends Error {
  override name = 'ProgramNotFoundError'
  readonly code = 'ENOENT'
}

function isBareName(file: string): boolean {
  return !/[\\/]/.test(file) && !win32.isAbsolute(file)
}

function defaultShell(profile: 'posix-bash' | undefined, context: SpawnPlanContext): string {
  if (context.platform === 'win32') return comSpec(context.env)
  return profile === 'posix-bash' ? '/bin/bash' : '/bin/sh'
}
