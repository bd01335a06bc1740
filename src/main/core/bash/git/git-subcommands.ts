import { type CommandPolicy, flagTable } from '../readonly/flag-types'
import {
  configReadCheck,
  creationCheck,
  gitVarCheck,
  notesListCheck,
  lsRemoteCheck,
  reflogCheck,
  remoteListCheck,
  remoteShowCheck,
  signatureFormatCheck,
} from './git-callbacks'
import { DIFF_FLAGS, GIT_REFUSED_FLAGS, LOG_FLAGS } from './git-flag-sets'
import { GIT_PARSE_OPTIONS_LONG_OPTIONS, GIT_SHORT_SPELLINGS } from './git-long-options'

// Every git subcommand has --output or a pathspec a file name could turn into a flag, so all of
// them refuse an unquoted leading glob.
function gitPolicy(policy: Omit<CommandPolicy, 'flagsCanWrite'>): CommandPolicy {
  return {
    ...policy,
    refusedFlags: { ...GIT_REFUSED_FLAGS, ...policy.refusedFlags },
    flagsCanWrite: true,
    exactLongOptions: true,
  }
}

/**
 * Subcommands whose options git's parse-options reads take any unambiguous prefix of a long option
 * (`git status --shor`), resolved among all of that subcommand's options as git knows them, so a
 * prefix git finds ambiguous asks, and one that stands for an option outside the table asks too.
 * Revision and diff options (log, show, diff…) are matched by git exactly, and so here. The same
 * parser takes `--no-X` for most of them, which resets X.
 */
function withGitAbbreviations(name: string, policy: CommandPolicy): CommandPolicy {
  const known = GIT_PARSE_OPTIONS_LONG_OPTIONS.get(name)
  if (!known) return policy
  const negations = GIT_SHORT_SPELLINGS.get(name) ?? new Map<string, readonly string[]>()
  return { ...policy, exactLongOptions: false, knownLongOptions: known, negations }
}

const log = gitPolicy({ flags: LOG_FLAGS, dashCount: true, check: signatureFormatCheck })

const FORMAT_REF_FLAGS = flagTable({
  none: '--ignore-case -i --omit-empty --no-color --no-column',
  string: '--sort --format',
  // `git branch --merged` alone means --merged HEAD; followed by a word, that word is the commit.
  lastArgDefault: '--contains --no-contains --merged --no-merged --points-at',
  optionalString: '--color --column',
})

const TABLES = new Map<string, CommandPolicy>([
  [
    'status',
    gitPolicy({
      flags: flagTable({
        none: `-s --short -b --branch --long -v --verbose -z --no-column --ahead-behind --no-ahead-behind
          --renames --no-renames --show-stash`,
        optionalString: `--porcelain -u --untracked-files --ignored --column --ignore-submodules
          --find-renames -M`,
      }),
    }),
  ],
  ['log', log],
  ['whatchanged', log],
  [
    'shortlog',
    gitPolicy({
      flags: {
        ...LOG_FLAGS,
        ...flagTable({
          none: '-n --numbered -s --summary -e --email --committer',
          string: '--group',
          optionalString: '-w',
        }),
      },
      check: signatureFormatCheck,
    }),
  ],
  ['rev-list', log],
  ['show', gitPolicy({ flags: LOG_FLAGS, check: signatureFormatCheck })],
  [
    'diff',
    gitPolicy({
      flags: { ...DIFF_FLAGS, ...flagTable({ none: '--cached --staged --no-index --merge-base' }) },
    }),
  ],
  ['stash list', log],
  [
    'stash show',
    gitPolicy({ flags: { ...DIFF_FLAGS, ...flagTable({ none: '--include-untracked --only-untracked' }) } }),
  ],
  [
    'blame',
    gitPolicy({
      flags: flagTable({
        none: `-b --root --show-stats -f --show-name -n --show-number -p --porcelain --line-porcelain -l -t
          -s -e --show-email -w -c --incremental --minimal --no-progress --color-lines --color-by-age`,
        string: '-L --date --ignore-rev',
        // --contents prints that file's lines; -S and --ignore-revs-file read revisions from a file.
        file: '-S --contents --ignore-revs-file',
        optionalString: '-M -C --abbrev',
      }),
    }),
  ],
  [
    'describe',
    gitPolicy({
      flags: flagTable({
        none: '--all --tags --contains --long --always --first-parent --exact-match --debug',
        number: '--candidates',
        string: '--match --exclude',
        optionalString: '--abbrev --dirty --broken',
      }),
    }),
  ],
  [
    'rev-parse',
    gitPolicy({
      flags: flagTable({
        none: `--abbrev-ref --symbolic --symbolic-full-name --verify -q --quiet --show-toplevel --show-prefix
          --show-cdup --git-dir --git-common-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository
          --is-shallow-repository --absolute-git-dir --all --show-superproject-working-tree --local-env-vars
          --revs-only --no-revs --flags --no-flags --sq --not --show-ref-format`,
        file: '--resolve-git-dir',
        string: `--default --git-path --since --until --after --before --path-format
          --prefix --disambiguate --exclude --glob`,
        optionalString: '--short --branches --tags --remotes --show-object-format',
      }),
    }),
  ],
  [
    'ls-files',
    gitPolicy({
      flags: flagTable({
        none: `-c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -k
          --killed -z -t -v -f --directory --no-empty-directory --eol --full-name --recurse-submodules
          --error-unmatch --exclude-standard --deduplicate --sparse --debug --resolve-undo`,
        string: '-x --exclude --exclude-per-directory --with-tree --format',
        file: '-X --exclude-from',
        optionalString: '--abbrev',
      }),
    }),
  ],
  [
    'ls-tree',
    gitPolicy({
      flags: flagTable({
        none: '-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree',
        string: '--format',
        optionalString: '--abbrev',
      }),
    }),
  ],
  [
    'cat-file',
    gitPolicy({
      flags: flagTable({
        none: `-t -s -e -p --batch-all-objects --follow-symlinks --unordered --buffer -Z --allow-unknown-type
          --mailmap --use-mailmap --no-mailmap`,
        optionalString: '--batch --batch-check --batch-command',
      }),
    }),
  ],
  [
    'for-each-ref',
    gitPolicy({
      flags: {
        ...FORMAT_REF_FLAGS,
        ...flagTable({
          none: '--shell --perl --python --tcl --stdin',
          number: '--count',
          string: '--exclude',
        }),
      },
      check: signatureFormatCheck,
    }),
  ],
  [
    'show-ref',
    gitPolicy({
      flags: flagTable({
        none: '--head --tags --branches --heads -d --dereference --verify -q --quiet --exists',
        optionalString: '-s --hash --abbrev --exclude-existing',
      }),
    }),
  ],
  [
    'merge-base',
    gitPolicy({ flags: flagTable({ none: '-a --all --octopus --independent --is-ancestor --fork-point' }) }),
  ],
  [
    'name-rev',
    gitPolicy({
      flags: flagTable({
        none: '--tags --all --name-only --no-undefined --always --annotate-stdin',
        string: '--refs --exclude',
      }),
    }),
  ],
  [
    'grep',
    gitPolicy({
      flags: flagTable({
        none: `-i -v -w -n -l -L -c -h -H -o -q -E -F -G -P -z -I -a -p -W --cached --untracked --no-index
          --recurse-submodules --full-name --name-only --files-with-matches --files-without-match --count
          --break --heading --show-function --function-context --all-match --and --or --not --column
          --only-matching --null --text --no-textconv --exclude-standard --no-exclude-standard
          --line-number --ignore-case --word-regexp --invert-match --extended-regexp --fixed-strings
          --basic-regexp --perl-regexp --quiet`,
        number: '-A -B -C -m --max-count --max-depth --threads --after-context --before-context --context',
        string: '-e',
        file: '-f',
        optionalString: '--color',
      }),
      refusedFlags: {
        '-O': 'git grep -O runs a pager program on the matching files',
        '--open-files-in-pager': 'git grep --open-files-in-pager runs a pager program',
      },
      dashCount: true,
    }),
  ],
  [
    'branch',
    gitPolicy({
      flags: {
        ...FORMAT_REF_FLAGS,
        ...flagTable({
          none: '--list -l -a --all -r --remotes -v -vv --verbose --show-current',
          optionalString: '--abbrev',
        }),
      },
      check: creationCheck('branch'),
    }),
  ],
  [
    'tag',
    gitPolicy({
      flags: { ...FORMAT_REF_FLAGS, ...flagTable({ none: '--list -l', optionalString: '-n' }) },
      check: creationCheck('tag'),
    }),
  ],
  ['reflog', gitPolicy({ flags: LOG_FLAGS, dashCount: true, check: reflogCheck })],
  ['remote', gitPolicy({ flags: flagTable({ none: '-v --verbose' }), check: remoteListCheck })],
  ['remote show', gitPolicy({ flags: flagTable({ none: '-n' }), check: remoteShowCheck })],
  ['remote get-url', gitPolicy({ flags: flagTable({ none: '--push --all' }) })],
  [
    'ls-remote',
    gitPolicy({
      flags: flagTable({
        none: '--heads --tags --refs -q --quiet --exit-code --get-url --symref -b --branches -t',
        string: '--sort -o --server-option',
      }),
      refusedFlags: {
        '--upload-pack': 'git ls-remote --upload-pack runs a program',
        '-u': 'git ls-remote -u runs a program as the upload pack',
      },
      check: lsRemoteCheck,
    }),
  ],
  [
    'worktree list',
    gitPolicy({ flags: flagTable({ none: '--porcelain -v --verbose -z', string: '--expire' }) }),
  ],
  [
    'config',
    gitPolicy({
      flags: flagTable({
        // --get-color is an action like --get: its slot and default are operands, not its value.
        none: `--get --get-all --get-regexp --get-urlmatch --get-colorbool --get-color --list -l --show-origin
          --show-scope --name-only --null -z --global --system --local --worktree --includes --no-includes
          --bool --int --bool-or-int --path --expiry-date`,
        string: '--type --default --blob',
        // -f reads any file as config: `git config -f ~/.pypirc --get pypi.password`.
        file: '--file -f',
      }),
      check: configReadCheck,
    }),
  ],
  ['count-objects', gitPolicy({ flags: flagTable({ none: '-v --verbose -H --human-readable' }) })],
  ['cherry', gitPolicy({ flags: flagTable({ none: '-v', optionalString: '--abbrev' }), maxPositionals: 3 })],
  [
    'show-branch',
    gitPolicy({
      flags: flagTable({
        none: `-r --remotes -a --all --current --topo-order --date-order --sparse --list --merge-base
          --independent --no-name --sha1-name --topics --no-color`,
        number: '--more',
        optionalString: '-g --reflog --color',
      }),
    }),
  ],
  [
    'diff-tree',
    gitPolicy({
      flags: {
        ...DIFF_FLAGS,
        ...flagTable({
          none: `-r -t --root --merge-base --stdin -s -v --no-commit-id --always --combined-all-paths
            --no-abbrev`,
          string: '--format --encoding',
          optionalString: '--pretty',
        }),
      },
      check: signatureFormatCheck,
    }),
  ],
  ['notes list', gitPolicy({ flags: {}, maxPositionals: 1 })],
  ['notes', gitPolicy({ flags: flagTable({ string: '--ref' }), check: notesListCheck })],
  [
    'check-attr',
    gitPolicy({ flags: flagTable({ none: '-a --all --cached --stdin -z', string: '--source' }) }),
  ],
  [
    'var',
    gitPolicy({
      flags: {},
      refusedFlags: {
        '-l': 'git var -l prints every config value, tokens and credentials in URLs among them',
      },
      check: gitVarCheck,
    }),
  ],
  ['submodule status', gitPolicy({ flags: flagTable({ none: '--cached --recursive -q --quiet' }) })],
  [
    'check-ignore',
    gitPolicy({
      flags: flagTable({ none: '-q --quiet -v --verbose -n --non-matching --no-index -z --stdin' }),
    }),
  ],
])

/** Read-only git subcommands, matched by the longest prefix of the words after the global options. */
export const GIT_SUBCOMMANDS: ReadonlyMap<string, CommandPolicy> = new Map(
  [...TABLES].map(([name, policy]) => [name, withGitAbbreviations(name, policy)]),
)

/** The longest subcommand prefix of `words`, e.g. `stash list` before `stash`. */
export function findGitSubcommand(
  words: string[],
): { name: string; policy: CommandPolicy; length: number } | null {
  for (let length = Math.min(2, words.length); length >= 1; length -= 1) {
    const name = words.slice(0, length).join(' ')
    const policy = GIT_SUBCOMMANDS.get(name)
    if (policy) return { name, policy, length }
  }
  return null
}
