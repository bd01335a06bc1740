import { type CommandPolicy, flagTable } from './flag-types'

const GREP_FLAGS = flagTable({
  none: `-E -F -G -P -i -y -v -w -x -c -L -l -o -q -s -b -H -h -n -T -Z -z -a -I -r -R -U -V
    --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case --no-ignore-case
    --invert-match --word-regexp --line-regexp --count --files-without-match --files-with-matches
    --only-matching --quiet --silent --no-messages --byte-offset --with-filename --no-filename
    --line-number --initial-tab --null --null-data --text --recursive --dereference-recursive
    --binary --line-buffered --no-group-separator --version --help`,
  number: '-m --max-count -A --after-context -B --before-context -C --context',
  file: '-f --file --exclude-from',
  string: `-e --regexp --include --exclude --exclude-dir --label
    --binary-files -d --directories -D --devices --group-separator`,
  optionalString: '--color --colour',
})

// grep has no flag that writes or runs a program; `-5` is a context of five lines.
const grep: CommandPolicy = {
  flags: GREP_FLAGS,
  aliases: ['--color --colour'],
  dashCount: true,
  globOperandsAfterDoubleDash: true,
}

const rg: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-i -s -S -v -w -x -c -l -n -N -H -I -o -F -U -u -a -L -q -b -p -0 -P -V -h
      --files --hidden --no-hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot
      --no-heading --heading --json --vimgrep --count --count-matches --files-with-matches
      --files-without-match --line-number --no-line-number --ignore-case --case-sensitive --smart-case
      --fixed-strings --word-regexp --line-regexp --invert-match --only-matching --multiline
      --multiline-dotall --follow --text --null --null-data --trim --stats --sort-files --no-messages
      --quiet --column --no-column --no-filename --with-filename --pretty --byte-offset --passthru
      --no-config --crlf --debug --trace --type-list --pcre2 --no-pcre2 --binary --no-binary
      --one-file-system --no-unicode --include-zero --max-columns-preview --version --help`,
    number: '-m --max-count -A -B -C --after-context --before-context --context -d --max-depth -j --threads',
    file: '-f --file --ignore-file',
    string: `-e --regexp -g --glob --iglob -t --type -T --type-not --sort --sortr -r --replace
      --colors --color --type-add --type-clear --max-filesize -E --encoding --path-separator
      --context-separator --field-match-separator --field-context-separator -M --max-columns --engine
`,
  }),
  refusedFlags: {
    '--pre': 'rg --pre runs a program on every file it searches',
    '--pre-glob': 'rg --pre-glob selects files for a --pre program',
    '-z': 'rg -z runs decompression programs on compressed files',
    '--search-zip': 'rg --search-zip runs decompression programs on compressed files',
  },
  flagsCanWrite: true,
  // ripgrep and fd (Rust's clap) match long options exactly.
  exactLongOptions: true,
}

// find's reference files (-newer F, -newerXY F with Y not t) are only stat()ed, but a stat of
// ~/.ssh/id_rsa still tells its times, so they are judged as places read.
const NEWER_FILE = ['a', 'B', 'c', 'm'].flatMap((x) => ['a', 'B', 'c', 'm'].map((y) => `-newer${x}${y}`))

// find has its own grammar (findutils 4.9): single-dash primaries matched exactly, each with a
// fixed number of arguments; -exec, -delete and the -f… actions are refused before the table.
const find: CommandPolicy = {
  flags: flagTable({
    none: `-H -L -P -O0 -O1 -O2 -O3 -print -print0 -ls -prune -quit -true -false -empty -executable
      -readable -writable -nouser -nogroup -depth -d -follow -mount -xdev -noleaf -daystart -warn
      -nowarn -ignore_readdir_race -noignore_readdir_race -not -and -or -a -o -help --help -version
      --version`,
    string: `-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype
      -user -group -perm -size -lname -ilname -fstype -printf -context -inum -links -uid -gid -used
      -amin -mmin -cmin -atime -mtime -ctime -maxdepth -mindepth -D -newermt -newerct -newerat
      -newerBt`,
    file: `-newer -anewer -cnewer -samefile ${NEWER_FILE.join(' ')}`,
    // The starting points are read from the file, so the folders find walks are known at run time.
    fileList: '-files0-from',
  }),
  singleDashLong: true,
  exactLongOptions: true,
  flagsCanWrite: true,
}

const FD_POLICY: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-H --hidden -I --no-ignore -u --unrestricted -s --case-sensitive -i --ignore-case -g --glob
      --regex -F --fixed-strings -a --absolute-path -L --follow -p --full-path -0
      --print0 -1 -q --quiet --show-errors --prune --no-ignore-vcs --no-require-git -h --help -V --version`,
    number: '-d --max-depth --min-depth --exact-depth --max-results -j --threads',
    string: `-t --type -e --extension -E --exclude -S --size --changed-within --changed-before -o --owner
      -c --color --format --and`,
    file: '--base-directory --search-path --ignore-file',
  }),
  refusedFlags: {
    '-x': 'fd -x runs a program for each result',
    '--exec': 'fd --exec runs a program for each result',
    '-X': 'fd -X runs a program on the results',
    '--exec-batch': 'fd --exec-batch runs a program on the results',
    // Decided: -l is --exec-batch with `ls` found on PATH; we refuse it like any other program fd runs.
    '-l': 'fd -l runs ls on the results',
    '--list-details': 'fd --list-details runs ls on the results',
  },
  flagsCanWrite: true,
  exactLongOptions: true,
}

/** Commands that search files or names. */
export const SEARCH_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  grep,
  egrep: grep,
  fgrep: grep,
  rg,
  find,
  fd: FD_POLICY,
  fdfind: FD_POLICY,
}
