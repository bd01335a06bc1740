/**
 * What the test function `f() { printf '%s\0' "$#" "$@"; }` printed: each call's argument count,
 * then its arguments, NUL-separated; one argv per call.
 */
export function splitArgv(output: string): string[][] {
  const fields = output.split('\0')
  const result: string[][] = []
  let at = 0
  while (at < fields.length - 1) {
    const count = Number(fields[at])
    result.push(fields.slice(at + 1, at + 1 + count))
    at += 1 + count
  }
  return result
}
