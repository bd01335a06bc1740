import { type CommandPolicy, flagTable, type PolicyCheck } from './flag-types'

const hostname: CommandPolicy = {
  flags: flagTable({
    none: `-f -s -i -I -d -A -a -y -v --fqdn --long --short --ip-address --all-ip-addresses --domain
      --all-fqdns --alias --nis --yp --verbose --help --version -V`,
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

const ss: CommandPolicy = {
  flags: flagTable({
    none: `-a -l -t -u -w -x -n -p -e -m -o -i -s -4 -6 -r -H -O -0 -Z -z -b -E --all --listening --tcp
      --udp --raw --unix --numeric --processes --extended --memory --options --info --summary --resolve
      --no-header --oneline --ipv4 --ipv6 --bpf --context --contexts --events --help --version -V`,
    string: '-f --family -A --query --socket',
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

const tar: CommandPolicy = {
  flags: flagTable({
    none: `-t --list -v --verbose -z --gzip -j --bzip2 -J --xz --zstd --lzip --lzma -a --auto-compress
      --force-local --numeric-owner --full-time --utc -R --block-number --show-transformed-names --help --wildcards-match-slash`,
    string: '-C --directory --exclude',
    file: '-f --file --exclude-from -X -T --files-from',
  }),
  refusedFlags: {
    '-I': 'tar -I runs a compression program',
    '--use-compress-program': 'tar --use-compress-program runs a program',
    '--to-command': 'tar --to-command runs a program for each file',
    '--checkpoint-action': 'tar --checkpoint-action can run commands',
    '--rsh-command': 'tar --rsh-command runs a program',
    '-x': 'tar -x extracts files',
    '-c': 'tar -c creates an archive',
    '-r': 'tar -r appends to an archive',
    '-u': 'tar -u updates an archive',
  },
  flagsCanWrite: true,
  oldStyleFirstArg: true,
  check: tarListCheck,
}

const journalctl: CommandPolicy = {
  flags: flagTable({
    none: `-f --follow -e --pager-end -x --catalog -r --reverse -k --dmesg -q --quiet -a --all --no-pager
      --no-full --no-hostname --utc --system --user --merge -m --list-boots --disk-usage --header
      --help --version`,
    string: `-u --unit --user-unit -t --identifier -p --priority -g --grep --since --until -S -U -o --output
      --output-fields -M --machine --facility -F --field --cursor --after-cursor`,
    optionalString: '-b --boot -n --lines',
    file: '-D --directory --file',
  }),
  refusedFlags: {
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
