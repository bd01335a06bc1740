import { type CommandPolicy, flagTable } from './flag-types'

// Shell builtins that read no options, or only their own letters, and never open a file: every
// other word is text they print or ignore.
const words: CommandPolicy = { operandsOnly: true, flags: {} }

// test's words are a test it evaluates: `-v 'a[$(cmd)]'` and `-R` evaluate an array subscript,
// which runs cmd (refused before any table, in direct-argv.ts; here too, so no word is harmless).
const test: CommandPolicy = {
  operandsOnly: true,
  flags: {},
  check: ({ positionals }) =>
    positionals.some((word) => word === '-v' || word === '-R')
      ? 'test -v/-R evaluates an array subscript in its operand (a[$(…)]), which runs a command'
      : null,
}

// bash's pwd reads -L and -P (and --help); any other word is an error, never a file.
const pwd: CommandPolicy = { flags: flagTable({ none: '-L -P --help' }) }

// type names commands; -f/-p/-P/-t/-a choose what it prints about each.
const type: CommandPolicy = { flags: flagTable({ none: '-a -f -p -P -t --help' }) }

// Debian's which is a POSIX shell script reading -a and -s only; its words are command names.
const which: CommandPolicy = { flags: flagTable({ none: '-a -s' }), exactLongOptions: true }

/** Builtins (and which) whose words are text, names or tests. */
export const BUILTIN_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  echo: words,
  true: words,
  false: words,
  ':': words,
  test,
  '[': test,
  pwd,
  type,
  which,
}
