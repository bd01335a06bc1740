/** One POSIX shell word that the shell reads back byte for byte: '…' with each ' as '\''. */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`
}

/** `C:\Users\me\x` → `/c/Users/me/x`: Git Bash (MSYS) paths for files Shellgate names. */
export function toGitBashPath(windowsPath: string): string {
  const match = /^([A-Za-z]):[\\/](.*)$/.exec(windowsPath)
  if (!match) return windowsPath.replaceAll('\\', '/')
  return `/${match[1]!.toLowerCase()}/${match[2]!.replaceAll('\\', '/')}`
}
