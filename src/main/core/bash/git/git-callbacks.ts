import type { PolicyCheck } from '../readonly/flag-types'
import { isSecretGitConfigKey } from '../../secrets/git-secret-keys'

/** `%G?`, `%GS`… and `%(signature…)` make git run gpg to verify each signature. */
export const signatureFormatCheck: PolicyCheck = ({ flags, positionals }) => {
  const values = [...flags.map((f) => f.value ?? ''), ...positionals]
  const format = values.find((value) => value.includes('%G') || value.includes('%(signature'))
  return format === undefined
    ? null
    : `git format ${JSON.stringify(format)} verifies signatures by running gpg`
}

/** branch/tag with a name and without --list create that branch or tag. */
export function creationCheck(kind: 'branch' | 'tag'): PolicyCheck {
  return (parsed, context) => {
    const listing = parsed.flags.some((f) => f.flag === '--list' || f.flag === '-l')
    if (!listing && parsed.positionals.length > 0) {
      return `git ${kind} ${parsed.positionals[0]} creates a ${kind}; only --list is read-only`
    }
    return signatureFormatCheck(parsed, context)
  }
}

export const reflogCheck: PolicyCheck = (parsed, context) => {
  const action = parsed.positionals[0]
  if (action !== undefined && action !== 'show' && action !== 'list') {
    return `git reflog ${action} is not show or list; expire and delete rewrite the reflog`
  }
  return signatureFormatCheck(parsed, context)
}

/**
 * Decided: only --get-url is read-only. Without a repository argument git ls-remote still contacts
 * the default remote (origin, whose URL the repository chose) over the network.
 */
export const lsRemoteCheck: PolicyCheck = ({ positionals, flags }) => {
  if (flags.some((f) => f.flag === '--get-url')) return null
  return positionals.length > 0
    ? `git ls-remote ${positionals[0]} contacts that remote, and a URL like ext::… runs a command`
    : 'git ls-remote contacts the default remote over the network'
}

export const remoteShowCheck: PolicyCheck = ({ flags }) =>
  flags.some((f) => f.flag === '-n')
    ? null
    : 'git remote show without -n contacts the remote over the network'

export const remoteListCheck: PolicyCheck = ({ positionals }) =>
  positionals.length > 0 ? `git remote ${positionals[0]} changes remotes; only listing is read-only` : null

/** `git notes` alone lists, like `git notes list`; every other action adds, edits or removes notes. */
export const notesListCheck: PolicyCheck = ({ positionals }) =>
  positionals.length === 0 || (positionals[0] === 'list' && positionals.length <= 2)
    ? null
    : `git notes ${positionals[0]} changes notes; only list is read-only`

// The variables `git var` prints; -l prints every config value too, tokens among them.
const GIT_VARIABLES = new Set([
  'GIT_AUTHOR_IDENT',
  'GIT_COMMITTER_IDENT',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_DEFAULT_BRANCH',
])

export const gitVarCheck: PolicyCheck = ({ positionals }) => {
  const name = positionals[0]
  if (positionals.length === 1 && name !== undefined && GIT_VARIABLES.has(name)) return null
  return 'git var prints one of its variables (GIT_AUTHOR_IDENT, GIT_EDITOR…); -l prints every config value, tokens among them'
}

const CONFIG_READ_FLAGS = new Set(['--get', '--get-all', '--get-color', '--get-colorbool'])

/** Forms that print many keys at once, http.*.extraheader tokens and credentials in URLs among them. */
const CONFIG_BULK_FLAGS: Readonly<Record<string, string>> = {
  '--list':
    'git config --list prints every key, tokens (http.*.extraheader) and credentials in URLs among them',
  '-l': 'git config -l prints every key, tokens (http.*.extraheader) and credentials in URLs among them',
  '--get-regexp': 'git config --get-regexp can print tokens (http.*.extraheader) and credentials in URLs',
  '--get-urlmatch': 'git config --get-urlmatch prints http.* settings, tokens among them',
}

/**
 * `git config KEY VALUE` writes; `git config KEY` and the --get… forms read, never a key that holds
 * secrets. The bulk forms print every value, unless --name-only keeps them to the names.
 */
export const configReadCheck: PolicyCheck = ({ flags, positionals }) => {
  const namesOnly = flags.some((f) => f.flag === '--name-only')
  const bulk = flags.find((f) => Object.hasOwn(CONFIG_BULK_FLAGS, f.flag))
  if (bulk && !(namesOnly && (bulk.flag === '--list' || bulk.flag === '-l' || bulk.flag === '--get-regexp')))
    return CONFIG_BULK_FLAGS[bulk.flag] as string
  if (bulk) return null
  const key = positionals[0]
  const reads = flags.some((f) => CONFIG_READ_FLAGS.has(f.flag)) || positionals.length === 1
  if (key !== undefined && isSecretGitConfigKey(key) && reads)
    return `git config ${key} can hold a token or credentials`
  if (reads) return null
  return positionals.length > 0
    ? `git config ${positionals.join(' ')} without --get or --list can set configuration`
    : 'git config without --get or --list is not read-only'
}
