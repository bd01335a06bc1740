import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseGitConfig } from '../../../../src/main/core/secrets/git-config-text'
import { tempDirsRemovedAfterEach } from '../exec/temp-dir'

/**
 * The sandbox's reading of a git config (what a submodule's config holds after a run, whether a
 * home .gitconfig holds a credential) must be git's (sixth review: a `# note \` comment hid the
 * next line, a core.fsmonitor git ran, from this reader).
 */
const TEXTS = [
  '[core]\n# note \\\n\tfsmonitor = "touch x; false"\n',
  '[core]\n; note \\\n\tfsmonitor = x\n',
  '[core]\n\tbare = false ; a comment \\\n\tfsmonitor = x\n',
  '[core]\n\tbare = false # a comment \\\n\tfsmonitor = x\n',
  '[core]\n\tpager = less \\\n -R\n\tfsmonitor = y\n',
  '[core]\n\tpager = "less \\\n -R"\n',
  '[core]\n\tpager = a\\\\\n\tfsmonitor = z\n',
  '[core] # header comment \\\n\tfsmonitor = w\n',
  '[alias]\n\tx = "!echo # not a comment" \\\n\n[core]\n\tfsmonitor = v\n',
]

describe('git config text, read as git reads it', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it.each(TEXTS.map((text) => [JSON.stringify(text), text]))('%s', (_, text) => {
    const file = join(tempDir(), 'config')
    writeFileSync(file, text)
    const theirs = execFileSync('git', ['config', '--file', file, '--list', '-z'], { encoding: 'utf8' })
      .split('\0')
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf('\n')
        return at === -1 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)]
      })
    const ours = parseGitConfig(text).entries.map((entry) => [entry.name.toLowerCase(), entry.value])
    expect(ours.map(([name]) => name)).toEqual(theirs.map(([name]) => name))
    expect(ours.find(([name]) => name === 'core.fsmonitor')?.[1]).toBe(
      theirs.find(([name]) => name === 'core.fsmonitor')?.[1],
    )
  })
})
