import { homedir } from 'node:os'
import path from 'node:path'
import { valueHoldsCredential } from '../../secrets/git-secret-keys'
import { type RepositoryConfigAnswer, readRepositoryConfig } from './git-config-by-git'
import { type HistorySecrets, readHistorySecrets } from './history-secrets'
import { entryName } from './git-config-file'
import { readIndexFacts } from './index-gitlinks'
import { type ObjectNamesJudged, judgeObjectNames } from './object-names'
import { readCommonDir } from './read-hooks'
import { isGitTrue, type UserConfigNames, userConfigCredentialNames } from './user-config-names'

/** What a read-only git command could print from this repository that the person should see first. */
export interface RepositoryFacts {
  /** Config names whose value carries a password (`remote.origin.url = https://me:tok@host/x`). */
  credentialKeys: string[]
  /**
   * Config names that carry a password themselves (`url.https://me:tok@host/.insteadof`), in the
   * repository's config and in the user's and system's (asked for only by what prints names).
   */
  credentialNames: () => UserConfigNames
  /** Tracked files with a secret's name, relative to the work tree (`.env`, `deploy/id_rsa`). */
  secretTrackedPaths: string[]
  /** Secret-named files anywhere in the history, read by git when a command prints from it. */
  historySecrets: () => HistorySecrets
  /** Objects a command names by id: secret-named ones as paths, unknown ones as a problem. */
  objectIds: (ids: readonly string[], label: string) => ObjectNamesJudged
  /**
   * Files the repository's own config makes git read (`core.attributesFile`, `mailmap.file`,
   * `blame.ignoreRevsFile`…), resolved as git resolves them: git prints their lines in its output
   * and in its errors (`fatal: invalid object name: <line>`), so each is a place the command reads.
   */
  namedFiles: (workTree: string) => string[]
  /** `log.follow` may be true in a config git reads (the repository's, the user's, the system's). */
  logFollows: () => boolean
}

/** Keys whose value is a file git reads while a read-only command runs. */
const FILE_KEYS = new Set([
  'core.attributesfile',
  'core.excludesfile',
  'mailmap.file',
  'mailmap.blob',
  'blame.ignorerevsfile',
  'diff.orderfile',
  'gpg.ssh.allowedsignersfile',
  'gpg.ssh.revocationfile',
  'fsck.skiplist',
  'fetch.fsck.skiplist',
  'receive.fsck.skiplist',
  'commit.template',
])

const CREDENTIALS = new WeakMap<RepositoryConfigAnswer, { keys: string[]; names: string[] }>()

/** Read from git's own reading of the config and from the index; both are cached by file identity. */
export function readRepositoryFacts(gitDir: string): RepositoryFacts {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  let credentials = CREDENTIALS.get(answer)
  if (credentials === undefined) {
    const entries = answer.ok ? answer.config.entries : []
    const names = (held: (entry: (typeof entries)[number]) => boolean) =>
      entries.filter(held).map((entry) => entryName(entry).toLowerCase())
    credentials = {
      keys: names((entry) => entry.value !== null && valueHoldsCredential(entry.value)),
      names: names((entry) => valueHoldsCredential(entryName(entry))),
    }
    CREDENTIALS.set(answer, credentials)
  }
  const index = readIndexFacts(path.join(gitDir, 'index'))
  // An index too large or unreadable names nothing here; the program checks refuse it already.
  const secretTrackedPaths = 'problem' in index ? [] : index.secretPaths
  const historySecrets = () => readHistorySecrets(gitDir, readCommonDir(gitDir))
  const objectIds = (ids: readonly string[], label: string): ObjectNamesJudged => {
    const history = historySecrets()
    if ('unknown' in history) return { problem: `${label} names an object by its id: ${history.unknown}` }
    return judgeObjectNames(gitDir, history.objects, ids, label)
  }
  const names = credentials.names
  const configured = answer.ok ? answer.config.entries : []
  const namedFiles = (workTree: string) =>
    configured
      .filter((entry) => entry.value !== null && FILE_KEYS.has(entryName(entry).toLowerCase()))
      .map((entry) => resolvedConfigPath(entry.value as string, workTree))
  const logFollows = () => {
    const local = configured.filter((entry) => entryName(entry).toLowerCase() === 'log.follow').at(-1)
    if (local !== undefined) return isGitTrue(local.value)
    const user = userConfigCredentialNames(homedir())
    return 'unknown' in user || user.logFollow === true
  }
  return {
    namedFiles,
    logFollows,
    credentialKeys: credentials.keys,
    credentialNames: () => {
      const user = userConfigCredentialNames(homedir())
      return 'unknown' in user ? user : { names: [...names, ...user.names] }
    },
    secretTrackedPaths,
    historySecrets,
    objectIds,
  }
}

/** git's path values: `~/` is the home folder, a relative path is taken from the work tree's top. */
function resolvedConfigPath(value: string, workTree: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(homedir(), value.slice(1))
  return path.resolve(workTree, value)
}
