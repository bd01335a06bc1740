import { type CommandPolicy, flagTable } from './flag-types'

// Tools that print about users, processes, sockets and the system (procps-ng 4.0.2, psmisc,
// net-tools, util-linux 2.38, glibc), with every option each has, hidden ones that the real
// tools accept included (pgrep shares pkill's --signal and --queue).

// who and users read the utmp file they are given (`who /var/log/wtmp`); `who am i` is -m.
const who: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -b --boot -d --dead -H --heading --ips -l --login --lookup -m -p --process -q
      --count -r --runlevel -s --short -t --time -T -w --mesg --message --writable -u --users --help
      --version`,
  }),
  aliases: ['--message --mesg --writable'],
  operandFiles: (positionals) => (positionals.length === 1 ? positionals : []),
}

const users: CommandPolicy = {
  flags: flagTable({ none: '--help --version' }),
  operandFiles: (positionals) => positionals.slice(0, 1),
}

const w: CommandPolicy = {
  flags: flagTable({
    none: `-h --no-header -u --no-current -s --short -f --from -o --old-style -i --ip-addr --help -V
      --version`,
  }),
}

const pstree: CommandPolicy = {
  flags: flagTable({
    none: `-a --arguments -A --ascii -c --compact-not -g --show-pgids -G --vt100 -h --highlight-all -l
      --long -n --numeric-sort -p --show-pids -s --show-parents -S --ns-changes -t --thread-names -T
      --hide-threads -u --uid-changes -U --unicode -V --version -Z --security-context`,
    string: '-C --color -H --highlight-pid -N --ns-sort',
  }),
}

const pgrep: CommandPolicy = {
  flags: flagTable({
    none: `-l --list-name -a --list-full -v --inverse -w --lightweight -c --count -f --full -i
      --ignore-case -n --newest -o --oldest -x --exact -L --logpidfile -A --ignore-ancestors --echo
      -h --help -V --version`,
    string: `-d --delimiter -g --pgroup -G --group -O --older -P --parent -s --session -t --terminal -u
      --euid -U --uid -r --runstates --cgroup --ns --nslist --signal --queue`,
    // pgrep reads the PIDs from the file.
    file: '-F --pidfile',
  }),
}

const uptime: CommandPolicy = {
  flags: flagTable({ none: '-p --pretty -h --help -s --since -V --version' }),
}

const free: CommandPolicy = {
  flags: flagTable({
    none: `-b --bytes --kilo --mega --giga --tera --peta -k --kibi -m --mebi -g --gibi --tebi --pebi -h
      --human --si -l --lohi -t --total -v --committed -w --wide --help -V --version`,
    string: '-s --seconds -c --count',
  }),
}

const netstat: CommandPolicy = {
  flags: flagTable({
    none: `-r --route -i --interfaces -g --groups -s --statistics -M --masquerade -v --verbose -W --wide
      -n --numeric --numeric-hosts --numeric-ports --numeric-users -N --symbolic -e --extend -p
      --programs -o --timers -c --continuous -l --listening -a --all -F --fib -C --cache -Z --context
      -t --tcp -u --udp -U --udplite -S --sctp -w --raw -x --unix -2 --l2cap -f --rfcomm -4 -6 --inet
      --inet6 --ax25 --ipx --netrom --ddp --x25 --rose --bluetooth -V --version -h --help`,
    string: '-A --protocol',
  }),
}

const locale: CommandPolicy = {
  flags: flagTable({
    none: `-a --all-locales -m --charmaps -c --category-name -k --keyword-name -v --verbose -? --help
      --usage -V --version`,
  }),
}

// glibc's getconf reads -a and -v SPEC by hand; its words are variable names and a path it stats.
const getconf: CommandPolicy = {
  flags: flagTable({ none: '-a', string: '-v' }),
  exactLongOptions: true,
}

// lsb_release (Python argparse, which also takes unambiguous prefixes) only prints.
const lsbRelease: CommandPolicy = {
  flags: flagTable({
    none: `-h --help -v --version -i --id -d --description -r --release -c --codename -a --all -s
      --short`,
  }),
}

// whereis looks names up in fixed folders; -B/-M/-S take a list of other folders, whose file names
// it would print without any place check.
const whereis: CommandPolicy = {
  flags: flagTable({ none: '-b -m -s -f -u -l -h --help -V --version' }),
  refusedFlags: {
    '-B': 'whereis -B searches folders the place checks do not see',
    '-M': 'whereis -M searches folders the place checks do not see',
    '-S': 'whereis -S searches folders the place checks do not see',
  },
  exactLongOptions: true,
}

// lsof 4.95 parses its own options, `+` ones too. It opens no file it is given, only stats it and
// prints which processes hold it; +D/+d walk a folder tree. Values it may take from the next word
// are read here only when attached (`-i:80`), so a next word is judged as a name either way.
const lsof: CommandPolicy = {
  flags: flagTable({
    none: '-? -h -a -b -l -n -N -O -P -Q -R -t -U -v -V -X -E +E -w +w',
    string: '-c +c -d -p -u -e +e',
    optionalString: '-f +f -o -s -S -T -x -K -L +L -r +r -g -i -F -Z',
    file: '+D +d',
  }),
  refusedFlags: {
    '+m': 'lsof +m creates a mount supplement file',
    '-m': 'lsof -m reads kernel memory from a file it is given',
    '-k': 'lsof -k reads the kernel name list from a file it is given',
    '+M': 'lsof +M registers with the portmapper over the network',
    '-M': 'lsof -M changes portmapper registration',
    '-z': 'lsof -z is not known to be read-only',
  },
  plusOptions: true,
  exactLongOptions: true,
}

/** Commands that print about users, processes, sockets and the system. */
export const SYSINFO_POLICIES: Readonly<Record<string, CommandPolicy>> = {
  who,
  users,
  w,
  pstree,
  pgrep,
  uptime,
  free,
  netstat,
  locale,
  getconf,
  lsb_release: lsbRelease,
  whereis,
  lsof,
}
