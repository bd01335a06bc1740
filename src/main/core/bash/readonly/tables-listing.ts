import { type CommandPolicy, flagTable } from './flag-types'

// Every option of each tool as GNU coreutils 9.1 has it (checked against the real tools by
// test/unit/core/bash/readonly/real-tools): the allowed ones by the kind of value they take, the
// ones that write or run something refused with the reason. getopt_long accepts any unambiguous
// prefix, so a table that lacked an option would resolve a prefix to the wrong one.

const ls: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-a --all -A --almost-all --author -b --escape -B --ignore-backups -c -C -d --directory -D
      --dired -f --file-type --full-time -F -g --group-directories-first -G --no-group -h
      --human-readable --si -H --dereference-command-line --dereference-command-line-symlink-to-dir -i
      --inode -k --kibibytes -l -L --dereference -m -n --numeric-uid-gid -N --literal -o -p -q
      --hide-control-chars --show-control-chars -Q --quote-name -r --reverse -R --recursive -s --size -S
      -t -u -U -v -x -X -Z --context --zero -1 --help --version`,
    string: `--block-size --format --hide --indicator-style -I --ignore --quoting-style --sort --time
      --time-style -T --tabsize -w --width`,
    optionalString: '--color --classify --hyperlink',
  }),
}

const du: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-0 --null -a --all --apparent-size -b --bytes -c --total -D --dereference-args -H -h
      --human-readable --inodes -k -L --dereference -l --count-links -m -P --no-dereference -S
      --separate-dirs --si -s --summarize -x --one-file-system --help --version`,
    string: '-B --block-size -d --max-depth -t --threshold --time-style --exclude',
    optionalString: '--time',
    file: '-X --exclude-from',
    // du prints the name of every file the list holds.
    fileList: '--files0-from',
  }),
}

const df: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -h --human-readable -H --si -i --inodes -k -l --local --no-sync -P --portability
      --sync --total -T --print-type -v --help --version`,
    string: '-B --block-size -t --type -x --exclude-type',
    // df's --output is a list of columns, not a file.
    optionalString: '--output',
  }),
}

const stat: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: '-L --dereference -f --file-system -t --terse --help --version',
    string: '-c --format --printf --cached',
  }),
}

const realpath: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-e --canonicalize-existing -m --canonicalize-missing -L --logical -P --physical -q --quiet
      -s --strip --no-symlinks -z --zero --help --version`,
    // Folders whose path is only resolved, never read.
    string: '--relative-to --relative-base',
  }),
}

const readlink: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({
    none: `-f --canonicalize -e --canonicalize-existing -m --canonicalize-missing -n --no-newline -q
      --quiet -s --silent -v --verbose -z --zero --help --version`,
  }),
}

const basename: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-a --multiple -z --zero --help --version', string: '-s --suffix' }),
}

const dirname: CommandPolicy = {
  globOperandsAfterDoubleDash: true,
  flags: flagTable({ none: '-z --zero --help --version' }),
}

/** Commands that list files and their metadata, and print names. */
export const LISTING_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  ls,
  dir: ls,
  vdir: ls,
  du,
  df,
  stat,
  realpath,
  readlink,
  basename,
  dirname,
}
