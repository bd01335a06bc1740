import { type CommandPolicy, flagTable, type PolicyCheck } from './flag-types'

const hostname: CommandPolicy = {
  flags: flagTable({
    none: `-f -s -i -I -d -A -a -y --fqdn --long --short --ip-address --all-ip-addresses --domain
      --all-fqdns --alias --nis --yp --help --version -V`,
  }),
  refusedFlags: {
    '-F': 'hostname -F sets the host name from a file',
    '--file': 'hostname --file sets the host name from a file',
    '-b': 'hostname -b sets the host name',
    '--boot': 'hostname --boot sets the host name',
  },
  check: ({ positionals }) =>
    positionals.length > 0 ? `hostname ${positionals[0]} sets the host name` : null,
}

// iproute2 6.1.
const ss: CommandPolicy = {
  flags: flagTable({
    none: `-a -l -t -u -w -x -n -p -e -m -o -i -s -4 -6 -r -H -O -0 -Z -z -b -E -T -M -S -d -h -V
      --all --listening --tcp --udp --raw --unix --numeric --processes --extended --memory --options
      --info --summary --resolve --no-header --oneline --ipv4 --ipv6 --bpf --context --contexts
      --events --threads --mptcp --sctp --dccp --packet --tipc --tipcinfo --vsock --xdp --tos --cgroup
      --inet-sockopt --help --version`,
    // -N reads another network namespace's sockets, still only reading.
    string: '-f --family -A --query --socket -N --net',
    file: '-F --filter',
  }),
  refusedFlags: {
    '-K': 'ss -K closes the sockets it matches',
    '--kill': 'ss --kill closes the sockets it matches',
    '-D': 'ss -D writes raw information to a file',
    '--diag': 'ss --diag writes raw information to a file',
  },
}

/** tar is read-only only listing (-t); `-f host:path` makes it run a remote shell. */
const tarListCheck: PolicyCheck = ({ flags }) => {
  if (!flags.some((f) => f.flag === '-t' || f.flag === '--list'))
    return 'tar without -t/--list extracts or creates archives'
  const local = flags.some((f) => f.flag === '--force-local')
  const remote = flags.find((f) => (f.flag === '-f' || f.flag === '--file') && (f.value ?? '').includes(':'))
  return remote && !local ? `tar -f ${remote.value} reaches a remote host through rsh/ssh` : null
}

// GNU tar 1.34, every option; in a listing (-t) those that create, extract, compare, run a program,
// prompt on the terminal (a multi-volume prompt takes `!` to start a shell) or write a file are
// refused, the rest only shape what is listed.
const tar: CommandPolicy = {
  flags: flagTable({
    none: `-t --list -v --verbose -z --gzip --gunzip --ungzip -j --bzip2 -J --xz --zstd --lzip --lzma
      --lzop -Z --compress --uncompress -a --auto-compress --no-auto-compress --force-local
      --numeric-owner --full-time --utc -R --block-number --show-transformed-names --show-stored-names
      --show-omitted-dirs --show-snapshot-field-ranges --show-defaults --help --usage -? --version
      --wildcards --no-wildcards --wildcards-match-slash --no-wildcards-match-slash --anchored
      --no-anchored --ignore-case --no-ignore-case --recursion --no-recursion --null --no-null
      --verbatim-files-from --no-verbatim-files-from --unquote --no-unquote -i --ignore-zeros -B
      --read-full-records -n --seek --no-seek -s --same-order --preserve-order -G --incremental -O
      --to-stdout -h --dereference --hard-dereference -P --absolute-names -l --check-links -o
      --old-archive --portability --posix -S --sparse -p --preserve-permissions --same-permissions
      --no-same-permissions --same-owner --no-same-owner -k --keep-old-files --keep-newer-files
      --keep-directory-symlink --skip-old-files --overwrite --overwrite-dir --no-overwrite-dir -m
      --touch --delay-directory-restore --no-delay-directory-restore --exclude-backups --exclude-caches
      --exclude-caches-all --exclude-caches-under --exclude-vcs --exclude-vcs-ignores --one-file-system
      --check-device --no-check-device --ignore-failed-read --ignore-command-error
      --no-ignore-command-error --acls --no-acls --selinux --no-selinux --xattrs --no-xattrs
      --clamp-mtime --restrict -W --verify`,
    string: `-C --directory --exclude --exclude-ignore --exclude-ignore-recursive --exclude-tag
      --exclude-tag-all --exclude-tag-under -b --blocking-factor --record-size -H --format -V --label
      --quoting-style --quote-chars --no-quote-chars --transform --xform -K --starting-file --add-file
      --strip-components --mode --owner --group
      --pax-option --level --sort --sparse-version --suffix --warning --xattrs-exclude --xattrs-include
      --hole-detection --program-name`,
    optionalString: '--occurrence --one-top-level --totals --checkpoint --atime-preserve',
    // -N and its kin take a date, or a file whose times tar takes when the value starts with / or .
    // (`-N ~/.ssh/id_rsa` tells the key's mtime by what it lists): judged as a file, since a date
    // names no file that exists.
    // A -T list is read for names and for option lines (`-T /proc/self/environ`, `--files-from=~/.ssh/id_rsa`,
    // whose lines tar quotes back as "Not found in archive"): what it reads is known only at run time.
    fileList: '-T --files-from',
    file: `-f --file --exclude-from -X --owner-map --group-map -N --newer --newer-mtime
      --after-date --mtime`,
  }),
  refusedFlags: {
    '-I': 'tar -I runs a compression program',
    '--use-compress-program': 'tar --use-compress-program runs a program',
    '--to-command': 'tar --to-command runs a program for each file',
    '--checkpoint-action': 'tar --checkpoint-action can run commands',
    '--rsh-command': 'tar --rsh-command runs a program',
    '--rmt-command': 'tar --rmt-command runs a program',
    '-F': 'tar -F runs a script at the end of each volume',
    '--info-script': 'tar --info-script runs a script at the end of each volume',
    '--new-volume-script': 'tar --new-volume-script runs a script at the end of each volume',
    '-M': 'tar -M prompts for the next volume, and its prompt runs a shell on !',
    '--multi-volume': 'tar --multi-volume prompts for the next volume, and its prompt runs a shell on !',
    '-L': 'tar -L implies a multi-volume archive and its prompt',
    '--tape-length': 'tar --tape-length implies a multi-volume archive and its prompt',
    '-w': 'tar -w prompts on the terminal',
    '--interactive': 'tar --interactive prompts on the terminal',
    '--confirmation': 'tar --confirmation prompts on the terminal',
    '--index-file': 'tar --index-file writes its listing to a file',
    '--volno-file': 'tar --volno-file writes the volume number to a file',
    '-g': 'tar -g reads and writes a snapshot file',
    '--listed-incremental': 'tar --listed-incremental reads and writes a snapshot file',
    '--backup': 'tar --backup renames files',
    '--remove-files': 'tar --remove-files deletes files',
    '--recursive-unlink': 'tar --recursive-unlink deletes folders',
    '-U': 'tar -U deletes files before extracting',
    '--unlink-first': 'tar --unlink-first deletes files before extracting',
    '--test-label': 'tar --test-label is an operation, not a listing',
    '-x': 'tar -x extracts files',
    '--extract': 'tar --extract extracts files',
    '--get': 'tar --get extracts files',
    '-c': 'tar -c creates an archive',
    '--create': 'tar --create creates an archive',
    '-r': 'tar -r appends to an archive',
    '--append': 'tar --append appends to an archive',
    '-u': 'tar -u updates an archive',
    '--update': 'tar --update updates an archive',
    '-A': 'tar -A appends archives to an archive',
    '--catenate': 'tar --catenate appends archives to an archive',
    '--concatenate': 'tar --concatenate appends archives to an archive',
    '--delete': 'tar --delete removes members from an archive',
    '-d': 'tar -d compares the archive with the files it names, which may be anywhere',
    '--diff': 'tar --diff compares the archive with the files it names, which may be anywhere',
    '--compare': 'tar --compare compares the archive with the files it names, which may be anywhere',
  },
  flagsCanWrite: true,
  oldStyleFirstArg: true,
  check: tarListCheck,
}

// systemd 252, hidden options (--this-boot, --new-id128) included. The journal files it is
// pointed at (--file, -D, --root, --image) are places it reads.
const journalctl: CommandPolicy = {
  flags: flagTable({
    none: `-f --follow -e --pager-end -x --catalog -r --reverse -k --dmesg -q --quiet -a --all --no-pager
      --no-full --full -l --no-hostname --no-tail --utc --system --user --merge -m --list-boots
      --disk-usage --header --fields -N --list-catalog --dump-catalog --show-cursor --verify --force
      --new-id128 --this-boot -h --help --version`,
    string: `-u --unit --user-unit -t --identifier -p --priority -g --grep --since --until -S -U -o --output
      --output-fields -M --machine --facility -F --field -c --cursor --after-cursor --namespace
      --interval --verify-key`,
    optionalString: '-b --boot -n --lines --case-sensitive',
    file: '-D --directory --file --root --image',
  }),
  refusedFlags: {
    '--cursor-file': 'journalctl --cursor-file writes the last cursor to that file',
    '--vacuum-size': 'journalctl --vacuum-size deletes journal files',
    '--vacuum-time': 'journalctl --vacuum-time deletes journal files',
    '--vacuum-files': 'journalctl --vacuum-files deletes journal files',
    '--rotate': 'journalctl --rotate rotates journal files',
    '--flush': 'journalctl --flush moves journal files',
    '--sync': 'journalctl --sync writes journal files',
    '--setup-keys': 'journalctl --setup-keys writes sealing keys',
    '--update-catalog': 'journalctl --update-catalog rewrites the catalog',
    '--relinquish-var': 'journalctl --relinquish-var moves journal files',
    '--smart-relinquish-var': 'journalctl --smart-relinquish-var moves journal files',
  },
}

/** System administration commands in their read-only forms. */
export const ADMIN_POLICIES: Readonly<Record<string, CommandPolicy>> = { hostname, ss, tar, journalctl }
