/**
 * One line of the sandbox's plan with the reason it is there: the setting or built-in rule that
 * put it in. The planner keeps these for `shellgate sandbox explain`; the execution request gets
 * only the paths (types.ts).
 */
export interface LayoutEntry {
  path: string
  /** Where the contents really are, when `path` is a host symlink (see MountedPath). */
  source?: string
  kind: 'dir' | 'file'
  /** Hidden entries only: reads as an empty file rather than failing (HiddenPath.readsEmpty). */
  readsEmpty?: boolean
  why: string
}
