import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import {
  GIT_PARSE_OPTIONS_LONG_OPTIONS,
  GIT_SHORT_SPELLINGS,
} from '../../../../../src/main/core/bash/git/git-long-options'
import { GIT_SUBCOMMANDS } from '../../../../../src/main/core/bash/git/git-subcommands'

// Issue 21: git's parse-options takes any unambiguous prefix of a long option. The verdict must
// read a prefix as the option the real git reads, and ask where git finds it ambiguous.
const GIT_ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' }
// Operands so each subcommand gets as far as its own work, after its options were read.
const OPERANDS: Record<string, string[]> = {
  grep: ['x'],
  'ls-tree': ['HEAD'],
  'cat-file': ['-t', 'HEAD'],
  'merge-base': ['HEAD', 'HEAD'],
  'check-attr': ['x', '--', 'f'],
  'name-rev': ['HEAD'],
  'check-ignore': ['f'],
  config: ['user.name'],
  'ls-remote': ['.'],
}

let repo = ''
beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'shellgate-git-abbrev-'))
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, env: GIT_ENV, encoding: 'utf8' })
  git('init', '-q')
  writeFileSync(join(repo, 'f'), 'x\n')
  git('add', 'f')
  git('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'first')
  git('tag', 'v1')
})
afterAll(() => rmSync(repo, { recursive: true, force: true }))

function runGit(subcommand: string, option: string, full: string): string {
  const run = runGitWords(subcommand, [option])
  // git names the option as written in its complaints and in full in its usage: take both out.
  const spelled = (word: string) => new RegExp(`(?<![\\w-])${word}(?![\\w-])`, 'g')
  return `${run.status}\n${run.stdout}\n${run.stderr}`
    .replace(spelled(full), '<option>')
    .replace(spelled(option), '<option>')
}

function runGitWords(subcommand: string, words: string[]) {
  const args = [...subcommand.split(' '), ...words, ...(OPERANDS[subcommand] ?? [])]
  return spawnSync('git', args, { cwd: repo, env: GIT_ENV, encoding: 'utf8', input: '', timeout: 5_000 })
}

/** What git's parse-options makes of a written long name, from its own list of options. */
function gitReading(known: readonly string[], written: string): string | 'ambiguous' | 'unknown' {
  if (known.includes(written)) return written
  const matches = known.filter((option) => option.startsWith(written))
  return matches.length === 1 ? (matches[0] as string) : matches.length === 0 ? 'unknown' : 'ambiguous'
}

const readOnly = (line: string) => classifyCommand(line, { cwd: repo, platform: 'linux' }).readOnly

describe('git long options abbreviated as git parse-options reads them', () => {
  it('the option lists are the installed git’s own', () => {
    for (const [subcommand, listed] of GIT_PARSE_OPTIONS_LONG_OPTIONS) {
      const helper = spawnSync('git', [...subcommand.split(' '), '--git-completion-helper-all'], {
        cwd: repo,
        env: GIT_ENV,
        encoding: 'utf8',
      })
      const live = [
        ...new Set(helper.stdout.split(/\s+/).filter((word) => word.startsWith('--') && word !== '--')),
      ]
      expect(live.map((word) => word.replace(/=$/, '')).sort(), subcommand).toEqual([...listed].sort())
    }
  })

  it('the longest and shortest prefixes of every table option: read as git reads them, ambiguous ones ask', () => {
    let resolved = 0
    let asked = 0
    for (const [subcommand, known] of GIT_PARSE_OPTIONS_LONG_OPTIONS) {
      const policy = GIT_SUBCOMMANDS.get(subcommand)
      expect(policy, subcommand).toBeDefined()
      for (const [option, kind] of Object.entries(policy?.flags ?? {})) {
        if (!option.startsWith('--') || kind !== 'none') continue
        const fullReadOnly = readOnly(`git ${subcommand} ${option} ${(OPERANDS[subcommand] ?? []).join(' ')}`)
        // The longest and the shortest prefix git reads as this option, and the next shorter one.
        let shortest = option.length
        while (shortest > 3 && gitReading(known, option.slice(0, shortest - 1)) === option) shortest -= 1
        for (const length of new Set([option.length - 1, shortest, shortest - 1])) {
          if (length < 3 || length >= option.length) continue
          const prefix = option.slice(0, length)
          const line = `git ${subcommand} ${prefix} ${(OPERANDS[subcommand] ?? []).join(' ')}`
          const reading = gitReading(known, prefix)
          if (reading !== option) {
            // git reads another option, or none: never read-only as if it were this one.
            if (reading === 'ambiguous' || reading === 'unknown') {
              expect(readOnly(line), line).toBe(false)
              asked += 1
            }
            continue
          }
          expect(readOnly(line), line).toBe(fullReadOnly)
          resolved += 1
        }
      }
    }
    expect(resolved).toBeGreaterThan(100)
    expect(asked).toBeGreaterThan(20)
  })

  it('the real git does with the shortest accepted prefix what it does with the option', () => {
    let compared = 0
    for (const [subcommand, known] of GIT_PARSE_OPTIONS_LONG_OPTIONS) {
      const policy = GIT_SUBCOMMANDS.get(subcommand)
      // Three options a subcommand keep the run to a second or two; the model above covers all.
      let runs = 0
      for (const [option, kind] of Object.entries(policy?.flags ?? {})) {
        if (!option.startsWith('--') || kind !== 'none' || runs >= 3) continue
        let shortest: string | null = null
        for (let length = option.length - 1; length >= 3; length -= 1) {
          const prefix = option.slice(0, length)
          if (gitReading(known, prefix) !== option) break
          shortest = prefix
        }
        if (shortest === null) continue
        const operands = (OPERANDS[subcommand] ?? []).join(' ')
        if (!readOnly(`git ${subcommand} ${shortest} ${operands}`)) continue
        expect(runGit(subcommand, shortest, option), `git ${subcommand} ${shortest}`).toBe(
          runGit(subcommand, option, option),
        )
        compared += 1
        runs += 1
      }
    }
    expect(compared).toBeGreaterThan(25)
  })

  it('prefixes of writing or program-running options ask, and so do log’s, which git never abbreviates', () => {
    for (const line of [
      'git branch --del x',
      'git branch --mov a b',
      'git tag --dele v1',
      'git config --unset-a user.name',
      'git config --ad user.name x',
      'git grep --open-files-in-p x',
      'git grep --ext-g x',
      'git status --s',
      'git show-ref --hea',
      'git log --onel',
      'git diff --ext',
      'git log --outp=/tmp/x',
    ])
      expect(readOnly(line), line).toBe(false)
    for (const line of [
      'git status --shor',
      'git branch --lis',
      'git tag --lis',
      'git grep --cou x',
      'git ls-files --cac',
    ])
      expect(readOnly(line), line).toBe(true)
  })
})

const printed = (run: ReturnType<typeof runGitWords>) => `${run.status}\n${run.stdout}\n${run.stderr}`

describe('git --no-X, which parse-options reads as a reset of X', () => {
  it('the one-letter spellings are the installed git’s own', () => {
    for (const [subcommand] of GIT_PARSE_OPTIONS_LONG_OPTIONS) {
      const help = spawnSync('git', [...subcommand.split(' '), '-h'], {
        cwd: repo,
        env: GIT_ENV,
        encoding: 'utf8',
      })
      const live = new Map<string, string[]>()
      for (const match of `${help.stdout}${help.stderr}`.matchAll(
        /^\s+(-[A-Za-z0-9]), (--[a-z0-9][a-z0-9-]*)/gm,
      ))
        live.set(match[2] as string, [...(live.get(match[2] as string) ?? []), match[1] as string])
      expect(Object.fromEntries(GIT_SHORT_SPELLINGS.get(subcommand) ?? new Map()), subcommand).toEqual(
        Object.fromEntries(live),
      )
    }
  })

  it('every table option given and then negated, in full or by one letter, reads as never given, as in the real git', () => {
    let modelled = 0
    let compared = 0
    for (const [subcommand, known] of GIT_PARSE_OPTIONS_LONG_OPTIONS) {
      const policy = GIT_SUBCOMMANDS.get(subcommand)
      const operands = (OPERANDS[subcommand] ?? []).join(' ')
      const bare = readOnly(`git ${subcommand} ${operands}`)
      for (const [option, kind] of Object.entries(policy?.flags ?? {})) {
        const negation = `--no-${option.slice(2)}`
        if (!option.startsWith('--') || kind !== 'none' || !known.includes(negation)) continue
        if (policy?.flags[negation] !== undefined) continue
        const spellings = [option, ...(GIT_SHORT_SPELLINGS.get(subcommand)?.get(option) ?? [])]
        for (const given of spellings.filter((spelling) => policy?.flags[spelling] !== undefined)) {
          const line = `git ${subcommand} ${given} ${negation} ${operands}`
          expect(readOnly(line), line).toBe(bare)
          modelled += 1
          // ls-remote asks the network; the rest run here, and git prints what it prints bare.
          if (subcommand === 'ls-remote') continue
          // Reset means git's zero for X's variable, which is not always the default: then git
          // stops with an error and prints nothing (`git branch --all --no-all`).
          const negated = runGitWords(subcommand, [given, negation])
          if (negated.status !== 0) expect(negated.stdout, line).toBe('')
          else expect(printed(negated), line).toBe(printed(runGitWords(subcommand, [])))
          compared += 1
        }
      }
    }
    expect(modelled).toBeGreaterThan(60)
    expect(compared).toBeGreaterThan(50)
  })

  it('a negation that takes a read mode away leaves the write the rest of the line asks for', () => {
    const git = (...args: string[]) =>
      spawnSync('git', args, { cwd: repo, env: GIT_ENV, encoding: 'utf8' }).stdout.trim()
    for (const [line, effect] of [
      ['git branch -l --no-list made-by-no-list', () => git('branch', '--list', 'made-by-no-list')],
      ['git branch --list --no-lis made-by-prefix', () => git('branch', '--list', 'made-by-prefix')],
      ['git config -l --no-list shellgate.a one', () => git('config', '--get', 'shellgate.a')],
      ['git config --get --no-get shellgate.b two', () => git('config', '--get', 'shellgate.b')],
    ] as const) {
      expect(readOnly(line), line).toBe(false)
      spawnSync('bash', ['-c', line], { cwd: repo, env: GIT_ENV })
      expect(effect(), `${line} really writes`).not.toBe('')
    }
    // The reset is of that option only: --list stays when another action is negated.
    expect(git('config', '--list', '--no-get')).toContain('shellgate.a=one')
  })

  it('a negation git does not know, of an option outside the table, or with a value, asks', () => {
    for (const line of [
      'git status --no-porcelain-v3',
      'git ls-remote --no-upload-pack .',
      'git grep --no-open-files-in-pager x',
      'git status --no-short=1',
      'git status --no-sh',
    ])
      expect(readOnly(line), line).toBe(false)
  })
})
