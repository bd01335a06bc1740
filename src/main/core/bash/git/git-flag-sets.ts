import { type FlagValueKind, flagTable } from '../readonly/flag-types'

/** Flags that make diff-producing subcommands write a file or run a program. */
export const GIT_REFUSED_FLAGS: Readonly<Record<string, string>> = {
  '--output': 'git --output writes to a file',
  '--ext-diff': 'git --ext-diff runs an external diff program',
  '--textconv': 'git --textconv runs textconv filter programs',
  '--filters': 'git --filters runs filter programs',
  '--show-signature': 'git --show-signature runs gpg',
}

/** Options every diff-producing subcommand (diff, show, log -p, stash show) understands. */
export const DIFF_FLAGS: Record<string, FlagValueKind> = flagTable({
  none: `-p --patch -s --no-patch --raw --patch-with-raw --shortstat --numstat --name-only --name-status
    --summary --patch-with-stat --compact-summary --full-index --binary --text -a -R -z --no-renames
    --minimal --patience --histogram --cc -c -m --no-prefix --no-ext-diff --no-textconv -w
    --ignore-all-space -b --ignore-space-change --ignore-blank-lines --ignore-space-at-eol
    --ignore-cr-at-eol --check --no-color --color-moved --no-color-moved --exit-code --quiet
    --function-context -W --irreversible-delete -D --ita-invisible-in-index --ita-visible-in-index
    --no-indent-heuristic --indent-heuristic --default-prefix --no-relative`,
  number:
    '-U --unified --inter-hunk-context -l --stat-width --stat-name-width --stat-count --stat-graph-width',
  string: `--diff-filter --diff-algorithm --anchored --src-prefix --dst-prefix --line-prefix -G -S
    --word-diff-regex --diff-merges --skip-to --rotate-to -I --ignore-matching-lines --color-moved-ws`,
  optionalString: `--stat --dirstat -M --find-renames -C --find-copies -B --break-rewrites --word-diff
    --color-words --color --relative --ignore-submodules --submodule --abbrev`,
  // -O<orderfile>: git reads the order of the files from it.
  file: '-O',
})

/** Revision walking and formatting (log, shortlog, rev-list, reflog, stash list). */
export const LOG_FLAGS: Record<string, FlagValueKind> = {
  ...DIFF_FLAGS,
  ...flagTable({
    none: `--oneline --graph --no-decorate --all --abbrev-commit --no-abbrev-commit --first-parent --merges
      --no-merges --reverse --date-order --topo-order --author-date-order --follow --full-history
      --simplify-merges --simplify-by-decoration --ancestry-path --left-right --cherry-pick --cherry-mark
      --cherry --boundary --source --use-mailmap --mailmap --no-mailmap --full-diff --log-size -i
      --regexp-ignore-case -E -F -P --basic-regexp --extended-regexp --fixed-strings --perl-regexp
      --all-match --invert-grep --walk-reflogs -g --no-notes --no-expand-tabs --relative-date --parents
      --children --show-pulls --dense --sparse --left-only --right-only --count --objects --no-walk
      --exclude-first-parent-only --single-worktree --bisect --stdin`,
    number: '-n --max-count --skip --max-parents --min-parents',
    string: `--format --since --until --after --before --author --committer --grep --date --encoding -L
      --decorate-refs --decorate-refs-exclude --exclude --glob --since-as-filter --max-age --min-age`,
    optionalString: '--decorate --branches --tags --remotes --pretty --notes --expand-tabs',
  }),
}
