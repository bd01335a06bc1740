import { describe } from 'vitest'
import { itClassifies } from '../classify-table'

describe('git global options', () => {
  itClassifies([
    ['git --no-pager log -3', true, 'git log only reads the repository'],
    ['git -P diff', true, 'git diff only reads the repository'],
    ['git --paginate status', true, 'git status only reads the repository'],
    ['git -c core.pager=evil log', false, 'git -c sets configuration that can name programs to run'],
    ['git -C /tmp status', false, 'git -C runs in another directory'],
    ['git --git-dir=/tmp/x log', false, 'git --git-dir points git at another repository'],
    ['git --work-tree=/tmp status', false, 'git --work-tree points git at another work tree'],
    ['git --exec-path=/tmp status', false, 'git --exec-path makes git run its helpers'],
    ['git --config-env=core.pager=X log', false, 'git --config-env sets configuration'],
    ['git --namespace=x log', false, 'git --namespace changes which refs'],
    ['git --super-prefix=x status', false, 'git --super-prefix is internal'],
    ['git --shallow-file=x log', false, 'git --shallow-file points git at another shallow file'],
    ['git --attr-source=HEAD diff', false, 'git --attr-source reads attributes'],
    ['git --bare log', false, 'git --bare treats the directory as a repository'],
    [
      'git --literal-pathspecs log',
      false,
      'git --literal-pathspecs is not a global option known to be read-only',
    ],
    ['git', false, 'git without a subcommand'],
    ['git --version', true, 'git --version only prints information'],
  ])
})

describe('git subcommands by longest prefix, with flag tables', () => {
  itClassifies([
    ['git status --short --branch', true, 'git status only reads'],
    ['git status --porcelain=v2 -uno', true, 'git status only reads'],
    ['git log --oneline --graph --decorate -20', true, 'git log only reads'],
    ['git log -p --stat --since=2.weeks -- src', true, 'git log only reads'],
    ['git log --pretty=format:"%h %s" -n 5', true, 'git log only reads'],
    ['git show HEAD~1 --stat', true, 'git show only reads'],
    ['git diff --cached --name-only', true, 'git diff only reads'],
    ['git diff HEAD~3 -- a.ts', true, 'git diff only reads'],
    ['git blame -L 10,20 f.ts', true, 'git blame only reads'],
    ['git shortlog -sn', true, 'git shortlog only reads'],
    ['git describe --tags --always', true, 'git describe only reads'],
    ['git rev-parse --abbrev-ref HEAD', true, 'git rev-parse only reads'],
    ['git rev-list --count HEAD', true, 'git rev-list only reads'],
    ['git ls-files -z --others --exclude-standard', true, 'git ls-files only reads'],
    ['git ls-tree -r --name-only HEAD', true, 'git ls-tree only reads'],
    ['git cat-file -p HEAD:README.md', true, 'git cat-file only reads'],
    ['git for-each-ref --format="%(refname)" refs/heads', true, 'git for-each-ref only reads'],
    ['git show-ref --tags', true, 'git show-ref only reads'],
    ['git merge-base --is-ancestor a b', true, 'git merge-base only reads'],
    ['git name-rev --name-only HEAD', true, 'git name-rev only reads'],
    ['git grep -n foo -- src', true, 'git grep only reads'],
    ['git stash list', true, 'git stash list only reads'],
    ['git stash show -p stash@{0}', true, 'git stash show only reads'],
    ['git stash', false, 'git stash is not a read-only git subcommand'],
    ['git stash pop', false, 'git stash is not a read-only git subcommand'],
    ['git worktree list --porcelain', true, 'git worktree list only reads'],
    ['git worktree add ../x', false, 'git worktree is not a read-only git subcommand'],
    ['git config --get user.name', true, 'git config only reads'],
    ['git config -l --show-origin', false, 'git config -l prints every key'],
    ['git config --list', false, 'git config --list prints every key'],
    ['git config -lz', false, 'git config -l prints every key'],
    ['git config --get-regexp remote', false, 'git config --get-regexp can print tokens'],
    ['git config --get-urlmatch http https://x', false, 'git config --get-urlmatch prints http.* settings'],
    ['git config --get http.https://github.com/.extraheader', false, 'can hold a token or credentials'],
    ['git config --get-all credential.helper', false, 'can hold a token or credentials'],
    ['git config --get remote.origin.url', true, 'git config only reads'],
    ['git config --get-color color.diff.new blue', true, 'git config only reads'],
    ['git config --get-color --edit', false, 'git config --edit is not a flag known to be read-only'],
    ['git config user.name evil', false, 'without --get or --list can set configuration'],
    ['git count-objects -vH', true, 'git count-objects only reads'],
    ['git check-ignore -v dist', true, 'git check-ignore only reads'],
    ['git commit -m x', false, 'git commit is not a read-only git subcommand'],
    ['git push --force', false, 'git push is not a read-only git subcommand'],
    ['git log --bogus', false, 'git log --bogus is not a flag known to be read-only'],
  ])
})

describe('git output-writing and program-running flags', () => {
  itClassifies([
    ['git diff --output=/tmp/x', false, 'git --output writes to a file'],
    ['git log -p --output x', false, 'git --output writes to a file'],
    ['git diff --ext-diff', false, 'git --ext-diff runs an external diff program'],
    ['git log -p --textconv', false, 'git --textconv runs textconv filter programs'],
    ['git log --show-signature', false, 'git --show-signature runs gpg'],
    ['git cat-file --filters HEAD:x', false, 'git --filters runs filter programs'],
    ['git grep -O foo', false, 'git grep -O runs a pager program'],
    ['git grep --open-files-in-pager=vim foo', false, 'git grep --open-files-in-pager runs a pager'],
  ])
})

describe('git callbacks', () => {
  itClassifies([
    ['git log --format=%G?', false, 'verifies signatures by running gpg'],
    ['git log --pretty="%h %GS"', false, 'verifies signatures by running gpg'],
    ['git show -s --format=%GK', false, 'verifies signatures by running gpg'],
    ['git rev-list --format=%G? HEAD', false, 'verifies signatures by running gpg'],
    ['git for-each-ref --format="%(signature)"', false, 'verifies signatures by running gpg'],
    ['git branch', true, 'git branch only reads'],
    ['git branch -a -vv', true, 'git branch only reads'],
    ['git branch --list "feat/*"', true, 'git branch only reads'],
    ['git branch new-feature', false, 'git branch new-feature creates a branch'],
    ['git branch -d old', false, 'git branch -d is not a flag known to be read-only'],
    ['git tag', true, 'git tag only reads'],
    ['git tag -l "v1.*"', true, 'git tag only reads'],
    ['git tag v2.0', false, 'git tag v2.0 creates a tag'],
    ['git tag -v v1.0', false, 'git tag -v is not a flag known to be read-only'],
    ['git reflog', true, 'git reflog only reads'],
    ['git reflog show -5', true, 'git reflog only reads'],
    ['git reflog list', true, 'git reflog only reads'],
    ['git reflog expire --all', false, 'git reflog expire is not show or list'],
    ['git reflog delete HEAD@{1}', false, 'git reflog delete is not show or list'],
    // Decided (review finding 6): with no argument it still contacts origin over the network.
    ['git ls-remote', false, 'git ls-remote contacts the default remote over the network'],
    ['git ls-remote --get-url', true, 'git ls-remote only reads'],
    ['git ls-remote --get-url origin', true, 'git ls-remote only reads'],
    ['git ls-remote origin', false, 'git ls-remote origin contacts that remote'],
    ["git ls-remote 'ext::sh -c touch% /tmp/pwned'", false, 'a URL like ext::… runs a command'],
    ['git ls-remote --upload-pack=evil', false, 'git ls-remote --upload-pack runs a program'],
    ['git remote -v', true, 'git remote only reads'],
    ['git remote add x y', false, 'git remote add changes remotes'],
    ['git remote show -n origin', true, 'git remote show only reads'],
    ['git remote show origin', false, 'git remote show without -n contacts the remote'],
    ['git remote get-url origin', true, 'git remote get-url only reads'],
  ])
})

describe('git with cd, pushd or popd in one command', () => {
  itClassifies([
    // Class 7: git after `cd DIR` is judged in DIR (and in the old folder, in case the cd fails).
    ['cd sub && git status', true, 'every command only reads (cd, git)'],
    ['pushd sub; git log', false, 'git after a cd to a folder only known at run time'],
    ['cd - && git log', false, 'git after a cd to a folder only known at run time'],
    ['git status; popd', true, 'every command only reads (git, popd)'],
    ['cd sub && grep -r foo .', true, 'every command only reads (cd, grep)'],
    ['cd sub && git commit -m x', false, 'git commit is not a read-only git subcommand'],
  ])
})
