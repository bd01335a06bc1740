import { type CommandPolicy, flagTable, type PolicyCheck } from './flag-types'

// diffutils 3.8, with the hidden options diff accepts (--binary, --forward-ed, --inhibit-hunk-merge,
// --sdiff-merge-assist, the -NUM context digits). --from-file/--to-file name a file diff prints.
const diff: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `--binary --brief --ed --expand-tabs --forward-ed --help --ignore-all-space --ignore-blank-lines
      --ignore-case --ignore-file-name-case --ignore-space-change --ignore-tab-expansion
      --ignore-trailing-space --inhibit-hunk-merge --initial-tab --left-column --minimal --new-file
      --no-dereference --no-ignore-file-name-case --normal --rcs --recursive --report-identical-files
      --sdiff-merge-assist --show-c-function --side-by-side --speed-large-files --strip-trailing-cr
      --suppress-blank-empty --suppress-common-lines --text --unidirectional-new-file --version -a -b -c
      -d -e -f -h -i -n -p -q -r -s -t -u -w -y -B -E -H -N -P -T -Z -0 -1 -2 -3 -4 -5 -6 -7 -8 -9`,
    string: `--changed-group-format --exclude --horizon-lines --ifdef --ignore-matching-lines --label
      --line-format --new-group-format --new-line-format --old-group-format --old-line-format --palette
      --show-function-line --starting-file --tabsize --unchanged-group-format --unchanged-line-format
      --width -x -C -D -F -I -L -S -U -W`,
    optionalString: '--color --context --unified -v',
    file: '--from-file --to-file -X --exclude-from',
  }),
  refusedFlags: {
    '-l': 'diff -l runs pr on the output',
    '--paginate': 'diff --paginate runs pr on the output',
  },
}

// util-linux 2.38.
const hexdump: CommandPolicy = {
  flags: flagTable({
    none: `--canonical --help --no-squeezing --one-byte-char --one-byte-octal --two-bytes-decimal
      --two-bytes-hex --two-bytes-octal --version -b -c -d -o -v -x -C -h -V`,
    string: '--format --length --skip -e -n -s',
    optionalString: '--color -L',
    // hexdump quotes a format file it cannot parse: `hexdump -f ~/.ssh/id_rsa` prints the key.
    file: '--format-file -f',
  }),
}

const rev: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-h --help -V --version' }),
}

const column: CommandPolicy = {
  flags: flagTable({
    none: `-t --table -d --table-noheadings -e --table-header-repeat -L --keep-empty-lines
      --table-empty-lines -J --json -x --fillrows -h --help -V --version`,
    string: `-n --table-name -O --table-order -N --table-columns -l --table-columns-limit -E
      --table-noextreme -H --table-hide -R --table-right -T --table-truncate -W --table-wrap -r --tree
      -i --tree-id -p --tree-parent -c --output-width -o --output-separator -s --separator`,
  }),
}

const lscpu: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -b --online -B --bytes -c --offline -J --json -x --hex -y --physical --output-all -h
      --help -V --version`,
    optionalString: '-C --caches -e --extended -p --parse',
  }),
  // --sysroot reads "system" files under a folder it is given, whose links may lead anywhere.
  refusedFlags: {
    '-s': 'lscpu -s reads system files under a folder it is given',
    '--sysroot': 'lscpu --sysroot reads system files under a folder it is given',
  },
}

const lsblk: CommandPolicy = {
  flags: flagTable({
    none: `-A --noempty -D --discard -J --json -M --merge -O --output-all -P --pairs -S --scsi -a --all
      -b --bytes -d --nodeps -f --fs -i --ascii -l --list -m --perms -n --noheadings -p --paths -r --raw
      -s --inverse -t --topology -y --shell -z --zoned -h --help -V --version`,
    string: '-E --dedup -I --include -e --exclude -o --output -w --width -x --sort',
    optionalString: '-T --tree',
  }),
  refusedFlags: { '--sysroot': 'lsblk --sysroot reads system files under a folder it is given' },
}

/** top is interactive (its keys kill and renice processes) unless it runs in batch mode. */
const topBatchCheck: PolicyCheck = ({ flags }) => {
  const names = new Set(flags.map((flag) => flag.flag))
  if (
    ['-b', '--batch-mode', '-O', '--list-fields', '-h', '--help', '-V', '--version'].some((f) => names.has(f))
  )
    return null
  return 'top without -b is interactive: its keys kill and renice processes'
}

// procps-ng 4.0.2.
const top: CommandPolicy = {
  flags: flagTable({
    none: `-b --batch-mode -c --cmdline-toggle -H --threads-show -i --idle-toggle -O --list-fields -S
      --accum-time-toggle -s --secure-mode -1 --single-cpu-toggle -h --help -V --version`,
    string: `-d --delay -E --scale-summary-mem -e --scale-task-mem -n --iterations -o --sort-override -p
      --pid -U --filter-any-user -u --filter-only-euser`,
    optionalString: '-w --width',
  }),
  check: topBatchCheck,
}

/** tshark reads packets live from an interface unless it is given a capture file to read. */
const tsharkFileCheck: PolicyCheck = ({ flags }) =>
  flags.some((flag) => ['-r', '-G', '-v', '-h', '-D'].includes(flag.flag))
    ? null
    : 'tshark without -r captures live traffic from an interface'

// Wireshark's tshark: only the options that print a capture file's packets. -X (Lua scripts),
// -o (preferences, some naming files), -w/--export-objects (writes), -i (live capture), -K/-H
// (more files) and every other option are refused as unknown.
const tshark: CommandPolicy = {
  flags: flagTable({
    none: '-V -x -n -q -Q -2 -l -P -S -v -h -D --color --no-duplicate-keys',
    string: '-Y -R -T -e -E -c -t -u -z -O -j -J -G',
    file: '-r',
  }),
  exactLongOptions: true,
  check: tsharkFileCheck,
}

/** Readers of files and devices, and system views, outside coreutils. */
export const READER_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  diff,
  hexdump,
  rev,
  column,
  lscpu,
  lsblk,
  top,
  tshark,
}
