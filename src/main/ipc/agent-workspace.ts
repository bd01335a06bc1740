import { realpath } from 'node:fs/promises'
import { sep } from 'node:path'
import { RpcError } from '../../shared/ipc/errors'

/**
 * An agent names its own workspace (MCP roots, --workspace, a hook's cwd), and that folder is what
 * "reads outside the workspace" asks about and what the workspace-write sandbox makes writable.
 * Naming the whole home folder, one of its ancestors or `/` would let every read of the person's
 * files run without asking; naming SHELLGATE_HOME would aim the agent at the hub's own files.
 * The person may work anywhere; an agent's session is refused there, before anything is created.
 */
export async function refuseBroadAgentWorkspace(
  workspace: string,
  places: { userHome: string; shellgateHome: string },
  /**
   * The folder the session service resolved and stored. Checked again after the session exists:
   * a symlink the agent controls may point elsewhere by then than when it was first resolved.
   */
  resolved?: string,
): Promise<void> {
  // A path that does not resolve is the session service's to refuse, in its own words. The three
  // lookups are independent: at once, not one after another (this runs twice per hook call).
  const [real, home, data] = await Promise.all([
    resolved ?? realpath(workspace).catch(() => null),
    realpath(places.userHome).catch(() => places.userHome),
    realpath(places.shellgateHome).catch(() => places.shellgateHome),
  ])
  if (real === null) return
  if (isWithin(home, real)) {
    throw new RpcError(
      'invalid_input',
      `workspace: ${workspace} is the home folder or contains it; an agent session works in a project folder (run the agent in one, or pass shellgate mcp --workspace DIR)`,
    )
  }
  if (isWithin(real, data) || isWithin(data, real)) {
    throw new RpcError(
      'invalid_input',
      `workspace: ${workspace} is Shellgate's own data folder (SHELLGATE_HOME) or inside it; an agent session works in a project folder`,
    )
  }
}

/** `path` is `dir` or lies below it. */
function isWithin(path: string, dir: string): boolean {
  return path === dir || dir === sep || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`)
}
