/** Windows has no sandbox backend in Shellgate; callers say so plainly instead of pretending. */
export const WINDOWS_NO_SANDBOX = 'no sandbox: Windows has no backend in Shellgate; commands run unsandboxed'
