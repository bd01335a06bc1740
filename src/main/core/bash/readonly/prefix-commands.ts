import { dockerInspectFormatCheck } from './callbacks/docker-inspect-format'
import { ghValuesCheck } from './callbacks/gh-values'
import { type CommandPolicy, flagTable } from './flag-types'

const DOCKER_LOGS: CommandPolicy = {
  flags: flagTable({
    none: '--details -f --follow -t --timestamps --help',
    string: '--since --until -n --tail',
  }),
}

const DOCKER_INSPECT: CommandPolicy = {
  flags: flagTable({ none: '-s --size --help', string: '-f --format --type' }),
  check: dockerInspectFormatCheck,
}

// gh flags shared by the read-only commands; --web opens a browser and is refused everywhere.
const GH_FLAGS = flagTable({
  none: `-c --comments --json-help --patch --name-only --log --log-failed --exit-status --verbose -v
    --required --watch --fail-fast --all --help`,
  number: '-L --limit -a --attempt -i --interval',
  string: `-R --repo -q --jq -t --template --json -s --state -A --author -a --assignee -l --label -B --base
    -H --head -S --search -b --branch -u --user --workflow -e --event -j --job --color --order --sort
    --owner --language --visibility --match --created --commit --status --exclude --ref -r --ref-type`,
})

const GH_POLICY: CommandPolicy = {
  flags: GH_FLAGS,
  // -w is --web for view commands (and --workflow for run list): refused rather than guessed.
  refusedFlags: { '--web': 'gh --web opens a browser', '-w': 'gh -w opens a browser' },
  flagsCanWrite: true,
  check: ghValuesCheck,
}

const GH_READ_ONLY = [
  'gh pr view',
  'gh pr list',
  'gh pr status',
  'gh pr diff',
  'gh pr checks',
  'gh issue view',
  'gh issue list',
  'gh issue status',
  'gh run list',
  'gh run view',
  'gh workflow list',
  'gh workflow view',
  'gh repo view',
  'gh release list',
  'gh release view',
  'gh search code',
  'gh search issues',
  'gh search prs',
  'gh search repos',
  'gh search commits',
  'gh label list',
]

const DOCKER_LIST_FLAGS = flagTable({
  none: '-a --all -q --quiet --no-trunc -s --size -l --latest --digests --help',
  number: '-n --last',
  string: '-f --filter --format',
})

// systemctl reads unit state; its pager comes from the user's SYSTEMD_PAGER/PAGER, not the repository.
const SYSTEMCTL_READ: CommandPolicy = {
  flags: flagTable({
    none: '--no-pager -a --all -l --full -q --quiet --user --system --no-legend --plain --failed --help',
    number: '-n --lines',
    string: '-t --type --state -p --property -o --output -M --machine',
  }),
  refusedFlags: {
    '-H': 'systemctl -H runs ssh to reach another host',
    '--host': 'systemctl --host runs ssh to reach another host',
  },
}

/**
 * `systemctl show UNIT` prints every property, Environment= (passwords set in unit files) among
 * them; only a -p/--property list naming no environment property is read-only.
 */
const SYSTEMCTL_SHOW: CommandPolicy = {
  ...SYSTEMCTL_READ,
  check: ({ flags }) => {
    const properties = flags
      .filter((f) => f.flag === '-p' || f.flag === '--property')
      .flatMap((f) => (f.value ?? '').split(','))
    if (properties.length === 0)
      return 'systemctl show without -p prints every property, Environment= among them'
    const environment = properties.find((property) => /env/i.test(property))
    return environment === undefined
      ? null
      : `systemctl show -p ${environment} prints a unit's environment, which holds secrets`
  },
}

/**
 * Read-only commands named by more than one word, matched by the longest prefix. `docker -H …` or
 * `gh --repo … pr view` never match, so options before the subcommand are refused as unknown.
 */
export const PREFIX_POLICIES: ReadonlyMap<string, CommandPolicy> = exactly([
  ['docker inspect', DOCKER_INSPECT],
  ['docker logs', DOCKER_LOGS],
  ['docker ps', { flags: DOCKER_LIST_FLAGS }],
  // Compose v2 lists the project's containers; options before `ps` (-f, --env-file, --project-directory)
  // never match this prefix and are refused as unknown.
  [
    'docker compose ps',
    {
      flags: flagTable({
        none: '-a --all -q --quiet --services --no-trunc --orphans --help',
        string: '--filter --format --status',
      }),
    },
  ],
  ['docker images', { flags: DOCKER_LIST_FLAGS }],
  [
    'gh auth status',
    {
      flags: flagTable({ none: '--help', string: '-h --hostname' }),
      refusedFlags: {
        '-t': 'gh auth status -t prints your token',
        '--show-token': 'gh auth status --show-token prints your token',
      },
    },
  ],
  ['systemctl status', SYSTEMCTL_READ],
  ['systemctl show', SYSTEMCTL_SHOW],
  ['systemctl list-units', SYSTEMCTL_READ],
  ['systemctl is-active', SYSTEMCTL_READ],
  ['systemctl is-enabled', SYSTEMCTL_READ],
  ...GH_READ_ONLY.map((prefix): [string, CommandPolicy] => [prefix, GH_POLICY]),
])

/**
 * docker and gh (Go's pflag) match long options exactly; systemctl's getopt_long would take a
 * prefix, but these tables list only the options they allow, so a prefix is refused, not guessed.
 */
function exactly(entries: Array<[string, CommandPolicy]>): ReadonlyMap<string, CommandPolicy> {
  return new Map(entries.map(([prefix, policy]) => [prefix, { ...policy, exactLongOptions: true }]))
}

const LONGEST_PREFIX_WORDS = 3

/** The longest table prefix of argv, with its policy and the words it covers. */
export function findPrefixPolicy(
  argv: string[],
): { prefix: string; policy: CommandPolicy; words: number } | null {
  for (let words = Math.min(LONGEST_PREFIX_WORDS, argv.length); words >= 2; words -= 1) {
    const prefix = argv.slice(0, words).join(' ')
    const policy = PREFIX_POLICIES.get(prefix)
    if (policy) return { prefix, policy, words }
  }
  return null
}
