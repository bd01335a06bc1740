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

const CONFIG_READ_FLAGS = new Set(['--get', '--get-all', '--get-color', '--get-colorbool'])

/** Forms that print many keys at once, http.*.extraheader tokens and credentials in URLs among them. */
const CONFIG_BULK_FLAGS: Readonly<Record<string, string>> = {
  '--list':
    'git config --list prints every key, tokens (http.*.extraheader) and credentials in URLs among them',
  '-l': 'git config -l prints every key, tokens (http.*.extraheader) and credentials in URLs among them',
  '--get-regexp': 'git config --get-regexp can print tokens (http.*.extraheader) and credentials in URLs',
  '--get-urlmatch': 'git config --get-urlmatch prints http.* settings, tokens among them',
}

/** `git config KEY VALUE` writes; only the --get… forms read, and never a section holding secrets. */
export const configReadCheck: PolicyCheck = ({ flags, positionals }) => {
  const bulk = flags.find((f) => Object.hasOwn(CONFIG_BULK_FLAGS, f.flag))
  if (bulk) return CONFIG_BULK_FLAGS[bulk.flag] as string
  const key = positionals[0]
  if (
    key !== undefined &&
    isSecretGitConfigKey(key) &&
    flags.some((f) => f.flag === '--get' || f.flag === '--get-all')
  )
    return `git config ${key} can hold a token or credentials`
  if (flags.some((f) => CONFIG_READ_FLAGS.has(f.flag))) return null
  return positionals.length > 0
    ? `git config ${positionals.join(' ')} without --get or --list can set configuration`
    : 'git config without --get or --list is not read-only'
}
