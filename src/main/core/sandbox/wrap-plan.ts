import { bwrapPlan } from './bwrap.linux'
import { WINDOWS_NO_SANDBOX } from './none.win32'
import { seatbeltPlan } from './seatbelt.darwin'
import type { ExecutionSandbox, WrappablePlan } from './types'
import { assertExecutionSandbox } from './validate-sandbox'

/** Thrown for a sandbox the platform cannot apply; the Bash path checks support before it asks. */
export class SandboxUnsupportedError extends Error {
  readonly code = 'sandbox_unsupported'
}

/**
 * The one entry point the exec room calls: the spawn plan it built, wrapped so the operating
 * system enforces the sandbox. The platform is a parameter so every backend is table-tested here.
 */
export function wrapSpawnPlan(
  plan: WrappablePlan,
  sandbox: ExecutionSandbox,
  context: { platform: NodeJS.Platform; cwd: string },
): WrappablePlan {
  assertExecutionSandbox(sandbox, context.platform)
  if (context.platform === 'linux') return bwrapPlan(sandbox, plan, context.cwd)
  if (context.platform === 'darwin') {
    if (!sandbox.privateTmp) throw new SandboxUnsupportedError('macOS needs sandbox.privateTmp')
    return seatbeltPlan(sandbox, plan, sandbox.privateTmp)
  }
  if (context.platform === 'win32') throw new SandboxUnsupportedError(WINDOWS_NO_SANDBOX)
  throw new SandboxUnsupportedError(`no sandbox backend for ${context.platform}`)
}
