import { type CommandPolicy, flagTable } from './flag-types'

// GNU coreutils 9.1 readers that print what they read, with every option the tool has (checked
// against the real tools by test/unit/core/bash/readonly/real-tools). None of them writes or runs
// anything; the values that name files are marked, so the place checks see them.

const DIGEST_FLAGS = flagTable({
  none: `-b --binary -c --check --tag -t --text -z --zero --ignore-missing --quiet --status --strict
    -w --warn --help --version`,
})

// `md5sum -c LIST` hashes every file LIST names: files known only at run time.
const digest: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: DIGEST_FLAGS,
  runTimeFilesWith: ['-c', '--check'],
}

const b2sum: CommandPolicy = {
  ...digest,
  flags: { ...DIGEST_FLAGS, ...flagTable({ string: '-l --length' }) },
}

const cksum: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-c --check --tag --untagged -z --zero --ignore-missing --quiet --status --strict -w --warn
      --debug --help --version`,
    string: '-a --algorithm -l --length',
  }),
  runTimeFilesWith: ['-c', '--check'],
}

const sum: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-r -s --sysv --help --version' }),
}

const cmp: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-b --print-bytes -l --verbose -s --quiet --silent --help -v --version',
    string: '-i --ignore-initial -n --bytes',
  }),
}

const comm: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-1 -2 -3 --check-order --nocheck-order --total -z --zero-terminated --help --version',
    string: '--output-delimiter',
  }),
}

const tac: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-b --before -r --regex --help --version', string: '-s --separator' }),
}

// fold, fmt, expand and unexpand read `-8` as the width (or tab stops) in their obsolete syntax.
const fold: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-b --bytes -s --spaces --help --version', string: '-w --width' }),
  dashCount: true,
}

const fmt: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-c --crown-margin -s --split-only -t --tagged-paragraph -u --uniform-spacing --help --version',
    string: '-p --prefix -w --width -g --goal',
  }),
  dashCount: true,
}

const expand: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-i --initial --help --version', string: '-t --tabs' }),
  dashCount: true,
}

const unexpand: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-a --all --first-only --help --version', string: '-t --tabs' }),
  dashCount: true,
}

const paste: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-s --serial -z --zero-terminated --help --version', string: '-d --delimiters' }),
}

const join: CommandPolicy = {
  flags: flagTable({
    none: '-i --ignore-case --check-order --nocheck-order --header -z --zero-terminated --help --version',
    string: '-a -e -j -o -t -v -1 -2',
  }),
}

const nl: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-p --no-renumber --help --version',
    string: `-b --body-numbering -d --section-delimiter -f --footer-numbering -h --header-numbering -i
      --line-increment -l --join-blank-lines -n --number-format -s --number-separator -v
      --starting-line-number -w --number-width`,
  }),
}

const od: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-v --output-duplicates --traditional --help --version -a -b -c -d -f -i -l -o -s -x -B -D -e -F -H -h -I -L -O -X',
    string: '-A --address-radix --endian -j --skip-bytes -N --read-bytes -t --format -S',
    optionalString: '--strings -w --width',
  }),
}

const base64: CommandPolicy = {
  flags: flagTable({ none: '-d --decode -i --ignore-garbage --help --version', string: '-w --wrap' }),
}

const base32: CommandPolicy = base64

const numfmt: CommandPolicy = {
  flags: flagTable({
    none: '--debug --grouping -z --zero-terminated --help --version',
    string: `-d --delimiter --field --format --from --from-unit --invalid --padding --round --suffix --to
      --to-unit`,
    optionalString: '--header',
  }),
}

const tr: CommandPolicy = {
  flags: flagTable({
    none: '-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1 --help --version',
  }),
}

// seq reads options only before its first number, and a negative number ends them too.
const seq: CommandPolicy = {
  flags: flagTable({ none: '-w --equal-width --help --version', string: '-f --format -s --separator' }),
  optionsEndAtFirstPositional: true,
}

const ONLY_HELP_AND_VERSION = flagTable({ none: '--help --version' })

// These read no option but --help and --version; the rest are numbers, names or text they print.
const sleep: CommandPolicy = { flags: ONLY_HELP_AND_VERSION }
const factor: CommandPolicy = { flags: ONLY_HELP_AND_VERSION }
const whoami: CommandPolicy = { flags: ONLY_HELP_AND_VERSION }
const groups: CommandPolicy = { flags: ONLY_HELP_AND_VERSION }
// yes and expr print (or evaluate) every word but a lone --help/--version, dashes included.
const yes: CommandPolicy = { operandsOnly: true, flags: {} }
const expr: CommandPolicy = { operandsOnly: true, flags: {} }

const nproc: CommandPolicy = { flags: flagTable({ none: '--all --help --version', string: '--ignore' }) }
const tty: CommandPolicy = { flags: flagTable({ none: '-s --silent --quiet --help --version' }) }
const id: CommandPolicy = {
  flags: flagTable({
    none: '-a -Z --context -g --group -G --groups -n --name -r --real -u --user -z --zero --help --version',
  }),
}
const uname: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -s --kernel-name -n --nodename -r --kernel-release -v --kernel-version -m --machine
      -p --processor -i --hardware-platform -o --operating-system --help --version`,
  }),
}

/** coreutils readers and printers. */
export const COREUTILS_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  md5sum: digest,
  sha1sum: digest,
  sha224sum: digest,
  sha256sum: digest,
  sha384sum: digest,
  sha512sum: digest,
  b2sum,
  cksum,
  sum,
  cmp,
  comm,
  tac,
  fold,
  fmt,
  expand,
  unexpand,
  paste,
  join,
  nl,
  od,
  base64,
  base32,
  numfmt,
  tr,
  seq,
  sleep,
  factor,
  whoami,
  groups,
  yes,
  expr,
  nproc,
  tty,
  id,
  uname,
}
