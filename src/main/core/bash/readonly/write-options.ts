/** find actions that delete, run programs or write files; each is refused wherever it appears. */
export const FIND_WRITE_ACTIONS: Readonly<Record<string, string>> = {
  '-delete': 'find -delete deletes files',
  '-exec': 'find -exec runs a program for each file',
  '-execdir': 'find -execdir runs a program for each file',
  '-ok': 'find -ok runs a program for each file',
  '-okdir': 'find -okdir runs a program for each file',
  '-fprint': 'find -fprint writes its output to a file',
  '-fprint0': 'find -fprint0 writes its output to a file',
  '-fprintf': 'find -fprintf writes its output to a file',
  '-fls': 'find -fls writes its output to a file',
}

// Short sed flags that take a value: a cluster stops at them (`-ne p` is -n then -e "p").
const SED_VALUE_FLAGS = new Set(['e', 'f', 'l'])

/** sed -i in any spelling: `-i`, `-i.bak`, `-ni`, `--in-place[=SUFFIX]`. */
function findSedInPlace(args: string[]): string | null {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string
    if (arg === '--') return null
    if (arg === '--in-place' || arg.startsWith('--in-place=')) return 'sed --in-place edits files in place'
    if (arg === '--expression' || arg === '--file' || arg === '--line-length') index += 1
    if (arg.startsWith('--') || !arg.startsWith('-')) continue
    for (const letter of arg.slice(1)) {
      if (letter === 'i') return 'sed -i edits files in place'
      if (SED_VALUE_FLAGS.has(letter)) {
        if (arg.endsWith(letter)) index += 1
        break
      }
    }
  }
  return null
}

// A cluster is refused as soon as it holds o or R, even after a value flag (`-Pfoo`): a false refusal
// only costs a prompt.
function findTreeOutput(args: string[]): string | null {
  for (const arg of args) {
    if (arg === '--') return null
    if (arg.startsWith('--') || !arg.startsWith('-')) continue
    if (arg.includes('o')) return 'tree -o writes its output to a file'
    if (arg.includes('R')) return 'tree -R writes 00Tree.html files into every directory'
  }
  return null
}

/**
 * diff -l/--paginate pipes its output through `pr`. Any short cluster holding `l` is refused (even
 * as a value, `-Il`: a false refusal costs a prompt), and so is any abbreviation getopt would
 * expand to --paginate.
 */
function findDiffPaginate(args: string[]): string | null {
  for (const arg of args) {
    if (arg === '--') return null
    const long = arg.startsWith('--') ? (arg.split('=')[0] as string) : null
    if (long !== null && long.length > 2 && '--paginate'.startsWith(long))
      return 'diff --paginate runs pr on the output'
    if (long === null && arg.startsWith('-') && arg.includes('l')) return 'diff -l runs pr on the output'
  }
  return null
}

/**
 * The write options of commands that are otherwise readers, checked before any table so the reason
 * names the option. git's global options are checked by the git policy, which knows their grammar.
 */
export function findKnownWriteOption(argv: string[]): string | null {
  const [name, ...args] = argv
  if (name === 'sed') return findSedInPlace(args)
  if (name === 'tree') return findTreeOutput(args)
  if (name === 'diff') return findDiffPaginate(args)
  if (name === 'find') {
    const action = args.find((arg) => Object.hasOwn(FIND_WRITE_ACTIONS, arg))
    return action ? (FIND_WRITE_ACTIONS[action] as string) : null
  }
  return null
}
