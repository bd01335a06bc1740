// Generated from git 2.39 (`git <subcommand> --git-completion-helper-all`, `=` dropped): every long
// option, negations included, of the subcommands whose options git's parse-options reads, which
// accepts any unambiguous prefix of them. test/unit/core/bash/git/git-abbreviations.test.ts checks
// this list against the installed git.

/** Every long option git's parse-options knows, per subcommand that takes abbreviations. */
export const GIT_PARSE_OPTIONS_LONG_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    status: `--ahead-behind --branch --column --find-renames --ignore-submodules --ignored --long --no-ahead-behind --no-branch --no-column --no-ignore-submodules --no-ignored --no-long --no-null --no-porcelain --no-renames --no-short --no-show-stash --no-untracked-files --no-verbose --null --porcelain --renames --short --show-stash --untracked-files --verbose`,
    grep: `--after-context --all-match --and --basic-regexp --before-context --break --cached --color --column --context --count --exclude-standard --ext-grep --extended-regexp --files-with-matches --files-without-match --fixed-strings --full-name --function-context --heading --ignore-case --index --invert-match --line-number --max-count --max-depth --name-only --no-after-context --no-all-match --no-basic-regexp --no-before-context --no-break --no-cached --no-color --no-column --no-context --no-count --no-exclude-standard --no-ext-grep --no-extended-regexp --no-files-with-matches --no-files-without-match --no-fixed-strings --no-full-name --no-function-context --no-heading --no-ignore-case --no-index --no-invert-match --no-line-number --no-max-count --no-name-only --no-null --no-only-matching --no-open-files-in-pager --no-or --no-perl-regexp --no-quiet --no-recurse-submodules --no-recursive --no-show-function --no-text --no-textconv --no-threads --no-untracked --no-word-regexp --not --null --only-matching --open-files-in-pager --or --perl-regexp --quiet --recurse-submodules --recursive --show-function --text --textconv --threads --untracked --word-regexp`,
    branch: `--abbrev --all --color --column --contains --copy --create-reflog --delete --edit-description --force --format --ignore-case --list --merged --move --no-abbrev --no-all --no-color --no-column --no-contains --no-copy --no-create-reflog --no-delete --no-edit-description --no-force --no-format --no-ignore-case --no-list --no-merged --no-move --no-points-at --no-quiet --no-recurse-submodules --no-remotes --no-set-upstream --no-set-upstream-to --no-show-current --no-sort --no-track --no-unset-upstream --no-verbose --points-at --quiet --recurse-submodules --remotes --set-upstream --set-upstream-to --show-current --sort --track --unset-upstream --verbose --with --without`,
    tag: `--annotate --cleanup --color --column --contains --create-reflog --delete --edit --file --force --format --ignore-case --list --local-user --merged --message --no-annotate --no-cleanup --no-color --no-column --no-contains --no-create-reflog --no-edit --no-file --no-force --no-format --no-ignore-case --no-local-user --no-merged --no-points-at --no-sign --no-sort --points-at --sign --sort --verify --with --without`,
    'ls-files': `--abbrev --cached --debug --deduplicate --deleted --directory --empty-directory --eol --error-unmatch --exclude --exclude-from --exclude-per-directory --exclude-standard --format --full-name --ignored --killed --modified --no-abbrev --no-cached --no-debug --no-deduplicate --no-deleted --no-directory --no-empty-directory --no-eol --no-error-unmatch --no-exclude-per-directory --no-ignored --no-killed --no-modified --no-others --no-recurse-submodules --no-resolve-undo --no-sparse --no-stage --no-unmerged --no-with-tree --others --recurse-submodules --resolve-undo --sparse --stage --unmerged --with-tree`,
    describe: `--abbrev --all --always --broken --candidates --contains --debug --dirty --exact-match --exclude --first-parent --long --match --no-abbrev --no-all --no-always --no-broken --no-candidates --no-contains --no-debug --no-dirty --no-exact-match --no-exclude --no-first-parent --no-long --no-match --no-tags --tags`,
    'for-each-ref': `--color --contains --count --format --ignore-case --merged --no-color --no-contains --no-count --no-format --no-ignore-case --no-merged --no-perl --no-points-at --no-python --no-shell --no-sort --no-tcl --perl --points-at --python --shell --sort --tcl`,
    'show-branch': `--all --color --current --date-order --independent --list --merge-base --more --name --no-all --no-color --no-current --no-date-order --no-independent --no-list --no-merge-base --no-more --no-name --no-remotes --no-sha1-name --no-sparse --no-topics --no-topo-order --reflog --remotes --sha1-name --sparse --topics --topo-order`,
    'name-rev': `--all --always --annotate-stdin --exclude --name-only --no-all --no-always --no-annotate-stdin --no-exclude --no-name-only --no-peel-tag --no-refs --no-stdin --no-tags --no-undefined --peel-tag --refs --stdin --tags --undefined`,
    'check-ignore': `--index --no-index --no-non-matching --no-quiet --no-stdin --no-verbose --non-matching --quiet --stdin --verbose`,
    'count-objects': `--human-readable --no-human-readable --no-verbose --verbose`,
    'ls-remote': `--exec --exit-code --get-url --heads --no-exec --no-exit-code --no-get-url --no-heads --no-quiet --no-refs --no-server-option --no-sort --no-symref --no-tags --no-upload-pack --quiet --refs --server-option --sort --symref --tags --upload-pack`,
    'show-ref': `--abbrev --dereference --exclude-existing --hash --head --heads --no-abbrev --no-dereference --no-hash --no-head --no-heads --no-quiet --no-tags --no-verify --quiet --tags --verify`,
    'cat-file': `--allow-unknown-type --batch --batch-all-objects --batch-check --batch-command --buffer --filters --follow-symlinks --mailmap --no-allow-unknown-type --no-buffer --no-follow-symlinks --no-mailmap --no-path --no-unordered --no-use-mailmap --path --textconv --unordered --use-mailmap`,
    'ls-tree': `--abbrev --format --full-name --full-tree --long --name-only --name-status --no-abbrev --no-full-name --no-full-tree --object-only`,
    'merge-base': `--all --fork-point --independent --is-ancestor --no-all --octopus`,
    config: `--add --blob --bool --bool-or-int --bool-or-str --default --edit --expiry-date --file --fixed-value --get --get-all --get-color --get-colorbool --get-regexp --get-urlmatch --global --includes --int --list --local --name-only --no-add --no-blob --no-default --no-edit --no-file --no-fixed-value --no-get --no-get-all --no-get-color --no-get-colorbool --no-get-regexp --no-get-urlmatch --no-global --no-includes --no-list --no-local --no-name-only --no-null --no-remove-section --no-rename-section --no-replace-all --no-show-origin --no-show-scope --no-system --no-type --no-unset --no-unset-all --no-worktree --null --path --remove-section --rename-section --replace-all --show-origin --show-scope --system --type --unset --unset-all --worktree`,
    'check-attr': `--all --cached --no-all --no-cached --no-stdin --stdin`,
    'worktree list': `--expire --no-expire --no-porcelain --no-verbose --porcelain --verbose`,
  }).map(([name, list]) => [name, list.split(/\s+/).filter(Boolean)]),
)

// From the same git (`git <subcommand> -h`): the one-letter spellings of those long options, which
// `--no-<long>` resets as well (`git config -l --no-list k v` sets k). Checked by the same test.

/** Per subcommand, long option → its one-letter spellings. */
export const GIT_SHORT_SPELLINGS: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = new Map(
  Object.entries({
    status: '-v=--verbose -s=--short -b=--branch -z=--null -u=--untracked-files -M=--find-renames',
    grep: '-v=--invert-match -i=--ignore-case -w=--word-regexp -a=--text -r=--recursive -E=--extended-regexp -G=--basic-regexp -F=--fixed-strings -P=--perl-regexp -n=--line-number -l=--files-with-matches -L=--files-without-match -z=--null -o=--only-matching -c=--count -C=--context -B=--before-context -A=--after-context -p=--show-function -W=--function-context -q=--quiet -O=--open-files-in-pager -m=--max-count',
    branch:
      '-v=--verbose -q=--quiet -t=--track -u=--set-upstream-to -r=--remotes -a=--all -d=--delete -m=--move -c=--copy -l=--list -f=--force -i=--ignore-case',
    tag: '-l=--list -d=--delete -v=--verify -a=--annotate -m=--message -F=--file -e=--edit -s=--sign -u=--local-user -f=--force -i=--ignore-case',
    'ls-files':
      '-c=--cached -d=--deleted -m=--modified -o=--others -i=--ignored -s=--stage -k=--killed -u=--unmerged -x=--exclude -X=--exclude-from',
    'for-each-ref': '-s=--shell -p=--perl',
    'show-branch': '-a=--all -r=--remotes -g=--reflog',
    'check-ignore': '-q=--quiet -v=--verbose -n=--non-matching',
    'count-objects': '-v=--verbose -H=--human-readable',
    'ls-remote': '-q=--quiet -t=--tags -h=--heads -o=--server-option',
    'show-ref': '-d=--dereference -s=--hash -q=--quiet',
    'ls-tree': '-l=--long',
    'merge-base': '-a=--all',
    config: '-f=--file -l=--list -e=--edit -t=--type -z=--null',
    'check-attr': '-a=--all',
    'worktree list': '-v=--verbose',
  }).map(([name, pairs]) => [name, shortSpellings(pairs)]),
)

function shortSpellings(pairs: string): ReadonlyMap<string, readonly string[]> {
  const spellings = new Map<string, string[]>()
  for (const pair of pairs.split(/\s+/).filter(Boolean)) {
    const [short, long] = pair.split('=') as [string, string]
    spellings.set(long, [...(spellings.get(long) ?? []), short])
  }
  return spellings
}
