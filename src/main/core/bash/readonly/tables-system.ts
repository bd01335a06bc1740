import { dateOperandCheck, psEnvironmentCheck } from './callbacks/date-ps'
import { xargsCommandCheck } from './callbacks/xargs-command'
import { type CommandPolicy, flagTable } from './flag-types'

const date: CommandPolicy = {
  flags: flagTable({
    none: '-u --utc --universal --uct -R --rfc-email --rfc-2822 --rfc-822 --resolution --debug --help --version',
    string: '-d --date --rfc-3339',
    file: '-f --file -r --reference',
    optionalString: '-I --iso-8601',
  }),
  refusedFlags: {
    '-s': 'date -s sets the system clock',
    '--set': 'date --set sets the system clock',
  },
  check: dateOperandCheck,
}

const ps: CommandPolicy = {
  flags: flagTable({
    none: `-e -A -a -d -N -f -F -l -j -H -L -T -M -Z -y -w -c --forest --no-headers --headers --help
      --version`,
    string: `-o -O -p -q -u -U -g -G -C -t -s --pid --ppid --sort --format --user --group --cols --columns
      --lines --width --sid --quick-pid`,
  }),
  // procps' ps has its own parser, which matches long options exactly.
  exactLongOptions: true,
  check: psEnvironmentCheck,
}

const xargs: CommandPolicy = {
  flags: flagTable({
    none: '-0 -r -t -x --null --no-run-if-empty --verbose --exit --show-limits --help --version',
    number: '-n --max-args -P --max-procs -L -s --max-chars',
    optionalString: '--max-lines -l -e --eof',
    char: '-d --delimiter',
    '{}': '-I',
    EOF: '-E',
    // The words of the driven command come from the file: known only at run time.
    fileList: '-a --arg-file',
  }),
  refusedFlags: {
    '-p': 'xargs -p prompts on the terminal',
    '--interactive': 'xargs --interactive prompts on the terminal',
    '-o': 'xargs -o hands the terminal to the command',
    '--open-tty': 'xargs --open-tty hands the terminal to the command',
    '-i': 'xargs -i puts input lines inside the words of the command it runs',
    '--replace': 'xargs --replace puts input lines inside the words of the command it runs',
    // `--process-slot-var=LD_LIBRARY_PATH echo` makes echo load its libraries from ./0.
    '--process-slot-var':
      'xargs --process-slot-var sets a variable of the command it runs, which may be LD_PRELOAD or PATH',
  },
  optionsEndAtFirstPositional: true,
  check: xargsCommandCheck,
}

// cd only moves the fresh shell; more than one operand is an error bash would still act on in zsh.
const cd: CommandPolicy = {
  flags: flagTable({ none: '-L -P -e -@' }),
  maxPositionals: 1,
  operandCountMatters: true,
  exactLongOptions: true,
}

// pushd/popd only change the fresh shell's directory stack; `popd +N` names an entry.
const pushd: CommandPolicy = {
  flags: flagTable({ none: '-n' }),
  maxPositionals: 1,
  operandCountMatters: true,
}

const tree: CommandPolicy = {
  flags: flagTable({
    none: `-a -d -l -f -x -i -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -C -n -A -S -J -X --inodes
      --device --dirsfirst --filesfirst --noreport --du --si --prune --matchdirs --ignore-case --gitignore
      --fflinks --help --version`,
    number: '-L --filelimit',
    string: '-P -I --charset --timefmt --sort -H -T',
    // Read for patterns and notes, and the lines that follow a matching pattern are printed.
    file: '--gitfile --infofile',
  }),
  // tree (not installed here) is checked against nothing: prefixes are refused.
  exactLongOptions: true,
  flagsCanWrite: true,
}

const file: CommandPolicy = {
  flags: flagTable({
    none: `-b -i -L -h -k -N -n -r -s -E -0 -l -c -d --brief --mime --mime-type --mime-encoding
      --dereference --no-dereference --keep-going --no-pad --print0 --special-files --raw --list
      --extension --apple --checking-printout --debug --no-buffer --help --version -v`,
    string: '-e --exclude --exclude-quiet -F --separator -P --parameter',
    file: '-m --magic-file',
    // file describes every file the list names.
    fileList: '-f --files-from',
  }),
  refusedFlags: {
    '-p': 'file -p sets the files’ access times back (a write)',
    '--preserve-date': 'file --preserve-date sets the files’ access times back (a write)',
    '-S': 'file -S turns off the sandbox file runs its parsers in',
    '--no-sandbox': 'file --no-sandbox turns off the sandbox file runs its parsers in',
    '-C': 'file -C writes a compiled magic file',
    '--compile': 'file --compile writes a compiled magic file',
    '-z': 'file -z runs decompression programs on compressed files',
    '-Z': 'file -Z runs decompression programs on compressed files',
    '--uncompress': 'file --uncompress runs decompression programs on compressed files',
    '--uncompress-noreport': 'file --uncompress-noreport runs decompression programs on compressed files',
  },
  flagsCanWrite: true,
}

/** Commands about processes, time, the shell and file types. */
export const SYSTEM_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  date,
  ps,
  xargs,
  cd,
  pushd,
  popd: pushd,
  tree,
  file,
}
