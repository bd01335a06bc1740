import { awkProgramCheck } from './callbacks/awk-program'
import { jqFilterCheck } from './callbacks/jq-filter'
import { sedScriptCheck } from './callbacks/sed-script'
import { type CommandPolicy, flagTable } from './flag-types'

const head: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-q -v -z --quiet --silent --verbose --zero-terminated --help --version',
    string: '-n --lines -c --bytes',
  }),
  // head's obsolete first argument: `-5`, `-5c`, `-10lv` (a count, then letters, no value taken).
  obsoleteFirst: /^-\d+[cbkmlqvz]*$/,
}

const tail: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-q -v -z -f -F --quiet --silent --verbose --zero-terminated --retry --help --version`,
    number: '--pid --max-unchanged-stats',
    string: '-n --lines -c --bytes -s --sleep-interval',
    optionalString: '--follow',
  }),
  // tail's obsolete first argument: `-5`, `-5f`, `-5c`.
  obsoleteFirst: /^-\d+[bcl]?f?$/,
}

const cat: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number
      --squeeze-blank --show-tabs --show-nonprinting --help --version`,
  }),
}

const wc: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-c -m -l -L -w --bytes --chars --lines --max-line-length --words --help --version',
    fileList: '--files0-from',
  }),
}

const cut: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-n -s -z --complement --only-delimited --zero-terminated --help --version',
    string: '-b -c -f -d --bytes --characters --fields --delimiter --output-delimiter',
  }),
}

const sort: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-b -d -f -g -h -i -M -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order
      --ignore-case --general-numeric-sort --human-numeric-sort --ignore-nonprinting --month-sort
      --numeric-sort --random-sort --reverse --version-sort --merge --stable --unique --zero-terminated
      --debug --help --version`,
    number: '--parallel',
    string: '-k --key -t --field-separator -S --buffer-size --sort --batch-size -y',
    file: '--random-source',
    fileList: '--files0-from',
    optionalString: '--check',
  }),
  refusedFlags: {
    '-o': 'sort -o writes its output to a file',
    '--output': 'sort --output writes its output to a file',
    '-T': 'sort -T writes temporary files into that directory',
    '--temporary-directory': 'sort --temporary-directory writes temporary files into that directory',
    '--compress-program': 'sort --compress-program runs a program',
  },
  flagsCanWrite: true,
}

const uniq: CommandPolicy = {
  flags: flagTable({
    none: `-c -d -D -i -u -z --count --repeated --ignore-case --unique --zero-terminated --help --version`,
    number: '-f --skip-fields -s --skip-chars -w --check-chars',
    optionalString: '--all-repeated --group',
  }),
  flagsCanWrite: true,
  operandCountMatters: true,
  check: ({ positionals }) => (positionals.length > 1 ? 'uniq INPUT OUTPUT writes to OUTPUT' : null),
}

const shuf: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-e -r -z --echo --repeat --zero-terminated --help --version',
    number: '-n --head-count',
    string: '-i --input-range',
    file: '--random-source',
  }),
  refusedFlags: {
    '-o': 'shuf -o writes its output to a file',
    '--output': 'shuf --output writes its output to a file',
  },
  flagsCanWrite: true,
}

const sed: CommandPolicy = {
  flags: flagTable({
    none: `-n --quiet --silent -E -r --regexp-extended -s --separate -u --unbuffered -z --null-data
      --zero-terminated --posix --debug --sandbox -b --binary --follow-symlinks --help --version`,
    string: '-e --expression',
    number: '-l --line-length',
  }),
  refusedFlags: {
    '-i': 'sed -i edits files in place',
    '--in-place': 'sed --in-place edits files in place',
    '-f': 'sed -f reads a script we cannot see, which could write (w) or run commands (e)',
    '--file': 'sed --file reads a script we cannot see, which could write (w) or run commands (e)',
  },
  flagsCanWrite: true,
  check: sedScriptCheck,
}

const jq: CommandPolicy = {
  flags: flagTable({
    none: `-r -j -a -c -n -s -e -S -C -M -R --raw-output --join-output --ascii-output --compact-output
      --null-input --slurp --exit-status --sort-keys --color-output --monochrome-output --raw-input --tab
      --seq --stream --stream-errors --raw-output0 --args --jsonargs --unbuffered -h --help -V --version`,
    number: '--indent',
    string: '--arg --argjson',
  }),
  refusedFlags: {
    '-f': 'jq -f reads its filter from a file we cannot see',
    '--from-file': 'jq --from-file reads its filter from a file we cannot see',
    '-L': 'jq -L loads modules from a directory',
    '--rawfile': 'jq --rawfile reads a file into a variable',
    '--slurpfile': 'jq --slurpfile reads a file into a variable',
  },
  // jq matches long options exactly (its own parser).
  exactLongOptions: true,
  check: jqFilterCheck,
}

const xxd: CommandPolicy = {
  flags: flagTable({
    none: '-a -autoskip -b -bits -C -capitalize -e -E -EBCDIC -i -include -p -ps -postscript -plain -u -d -r -revert -h -help -v -version',
    string: '-c -cols -g -groupsize -l -len -n -name -o -s -seek',
  }),
  singleDashLong: true,
  // xxd's own parser stops at the first operand: `xxd in -a` makes `-a` the OUTFILE.
  optionsEndAtFirstPositional: true,
  flagsCanWrite: true,
  operandCountMatters: true,
  check: ({ positionals }) => (positionals.length > 1 ? 'xxd INFILE OUTFILE writes to OUTFILE' : null),
}

// bash's printf -v assigns a variable (PATH, IFS…) that the rest of the line then uses.
const printf: CommandPolicy = {
  flags: flagTable({ none: '--help --version' }),
  refusedFlags: { '-v': 'printf -v assigns a shell variable (PATH, IFS…) that later commands use' },
  optionsEndAtFirstPositional: true,
  exactLongOptions: true,
}

// awk programs are read fail-closed (callbacks/awk-program.ts); a program we cannot see is refused.
const awk: CommandPolicy = {
  flags: flagTable({ string: '-F -v --field-separator --assign', none: '--version' }),
  refusedFlags: {
    '-f': 'awk -f reads its program from a file we cannot see',
    '--file': 'awk --file reads its program from a file we cannot see',
    '-e': 'awk -e adds program text this check does not join',
    '--source': 'awk --source adds program text this check does not join',
    '-i': 'awk -i includes a source file',
    '--include': 'awk --include includes a source file',
    '-l': 'awk -l loads an extension',
    '--load': 'awk --load loads an extension',
    '-E': 'awk -E reads its program from a file',
    '--exec': 'awk --exec reads its program from a file',
    '-W': 'awk -W options are not known to be read-only',
  },
  flagsCanWrite: true,
  // mawk takes no long options at all and gawk (not installed here to check) has many: a prefix is
  // refused rather than resolved against a list we cannot verify.
  exactLongOptions: true,
  check: awkProgramCheck,
}

/** Commands that read and transform text. */
export const TEXT_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  head,
  tail,
  cat,
  wc,
  cut,
  sort,
  uniq,
  shuf,
  sed,
  jq,
  xxd,
  printf,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
}
