import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { entryName, parseGitConfig } from '../../../../../src/main/core/bash/git-safety/git-config-file'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

const HEADERS = [
  '[ core ]',
  '[core ""]',
  '[include]',
  '[core]',
  '[Core]',
  '[diff "PDF"]',
  '[filter "a\\"b"]',
  '[core.Sub]',
  '[pager]',
  '[url "ext::x"]',
]
const LINES = [
  'pager = less',
  'Pager=evil',
  'editor',
  '\tfsmonitor = "a b" # comment',
  'textconv = "x ; y" ; comment',
  'sshCommand = a\\\n b',
  'hooksPath = tab\\tin',
  'command = "quoted \\" inside"',
  '# comment = not a key',
  '; also a comment',
  '',
  '   ',
  'status = false',
  'insteadOf = https://',
  'pager = "unterminated',
  'k = a"b"c',
  'x = \\"',
  'fsmonitor=',
  'Path = ~/x.inc',
  'a-b = 1',
  'pager = one # two ; three',
  'pager = "#not comment"',
]

function randomConfig(random: () => number): string {
  const sections = 1 + Math.floor(random() * 3)
  let text = random() < 0.2 ? '\uFEFF' : ''
  for (let section = 0; section < sections; section += 1) {
    text += `${pick(random, HEADERS)}${random() < 0.2 ? ` ${pick(random, LINES.slice(0, 3))}` : ''}\n`
    const lines = Math.floor(random() * 4)
    for (let line = 0; line < lines; line += 1) text += `${pick(random, LINES)}\n`
  }
  return random() < 0.2 ? text.replace(/\n/g, '\r\n') : text
}

/** What git itself reads from a config file: `name\nvalue` (or just `name`) per NUL-terminated record. */
function gitListing(file: string): Array<[string, string | null]> | null {
  const git = spawnSync('git', ['config', '--file', file, '--list', '-z'], { encoding: 'utf8' })
  if (git.status !== 0) return null
  return git.stdout
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const newline = record.indexOf('\n')
      return newline === -1 ? [record, null] : [record.slice(0, newline), record.slice(newline + 1)]
    })
}

describe('our git config reader against git config --list (seed 314, 120 files)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('sees every key and value git sees, in order', () => {
    const random = seededRandom(314)
    const dir = tempDir()
    let compared = 0
    for (let index = 0; index < 120; index += 1) {
      const text = randomConfig(random)
      const file = join(dir, `config-${index}`)
      writeFileSync(file, text)
      const theirs = gitListing(file)
      // A file git rejects makes every git command fail before running anything.
      if (theirs === null) continue
      compared += 1
      const ours = parseGitConfig(text)
      expect(ours.unreadable, JSON.stringify(text)).toEqual([])
      const normalise = ([name, value]: [string, string | null]) => {
        const dot = name.lastIndexOf('.')
        const first = name.indexOf('.')
        // git prints section and key lowercased, the subsection as stored.
        return [
          `${name.slice(0, first).toLowerCase()}${name.slice(first, dot)}.${name.slice(dot + 1).toLowerCase()}`,
          value,
        ]
      }
      expect(
        ours.entries.map((entry) => [entryName(entry), entry.value]),
        JSON.stringify(text),
      ).toEqual(theirs.map(normalise))
    }
    expect(compared).toBeGreaterThan(60)
  })
})
