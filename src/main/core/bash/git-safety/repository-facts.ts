import path from 'node:path'
import { valueHoldsCredential } from '../../secrets/git-secret-keys'
import { type RepositoryConfigAnswer, readRepositoryConfig } from './git-config-by-git'
import { type HistorySecrets, readHistorySecrets } from './history-secrets'
import { entryName } from './git-config-file'
import { readIndexFacts } from './index-gitlinks'
import { type ObjectNamesJudged, judgeObjectNames } from './object-names'
import { readCommonDir } from './read-hooks'

/** What a read-only git command could print from this repository that the person should see first. */
export interface RepositoryFacts {
  /** Config names whose value carries a password (`remote.origin.url = https://me:tok@host/x`). */
  credentialKeys: string[]
  /** Tracked files with a secret's name, relative to the work tree (`.env`, `deploy/id_rsa`). */
  secretTrackedPaths: string[]
  /** Secret-named files anywhere in the history, read by git when a command prints from it. */
  historySecrets: () => HistorySecrets
  /** Objects a command names by id: secret-named ones as paths, unknown ones as a problem. */
  objectIds: (ids: readonly string[], label: string) => ObjectNamesJudged
}

const CREDENTIAL_KEYS = new WeakMap<RepositoryConfigAnswer, string[]>()

/** Read from git's own reading of the config and from the index; both are cached by file identity. */
export function readRepositoryFacts(gitDir: string): RepositoryFacts {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  let credentialKeys = CREDENTIAL_KEYS.get(answer)
  if (credentialKeys === undefined) {
    credentialKeys = answer.ok
      ? answer.config.entries
          .filter((entry) => entry.value !== null && valueHoldsCredential(entry.value))
          .map((entry) => entryName(entry).toLowerCase())
      : []
    CREDENTIAL_KEYS.set(answer, credentialKeys)
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
  return { credentialKeys, secretTrackedPaths, historySecrets, objectIds }
}
