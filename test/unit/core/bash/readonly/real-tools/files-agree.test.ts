import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../../src/main/core/bash/classify'
import { resolveLongOption } from '../../../../../../src/main/core/bash/readonly/flag-index'
import type { CommandPolicy } from '../../../../../../src/main/core/bash/readonly/flag-types'
import { COMMAND_POLICIES } from '../../../../../../src/main/core/bash/readonly/policy-tables'
import { pick, seededRandom } from '../../seeded-random'
import { traceRun } from './opened-files'

/**
 * Issue 21.1/21.2: for each tool family, seeded random command lines made of its file-valued flags
 * in every spelling getopt takes (unambiguous prefixes, `--opt=F` and `--opt F`, `-xF`, `-x F`,
 * clusters `-axF`), plain flags, operands, `--` and binutils `@FILE`, run for real under strace.
 * Every file the real tool tried to open must be one the verdict judged as a place read (or the
 * verdict must say the files are known only at run time), and the tool must start no program.
 * Half the runs have POSIXLY_CORRECT set, where options end at the first operand.
 */
interface Family {
  tool: string
  /** Words every line starts with (an action the tool needs: `tar -t`, `cut -f1`). */
  fixed?: string[]
  /** Flags without a value to sprinkle in. */
  plain: string[]
  operands: readonly [min: number, max: number]
  /**
   * Flags taking any string, given a file name as their value: only with POSIXLY_CORRECT, after an
   * operand, is that word a file.
   */
  valued?: string[]
  /** The first operand is a pattern unless a flag gave one (grep). */
  patternFirst?: boolean
  /** File-valued flags of the table to leave out (their files are not opened in this setup). */
  skip?: string[]
}

const FAMILIES: Family[] = [
  {
    tool: 'grep',
    plain: ['-n', '-i', '-c', '-H', '--count', '--no-messages', '-v'],
    operands: [1, 3],
    patternFirst: true,
  },
  { tool: 'sort', plain: ['-r', '-u', '-n', '--stable', '-f', '-b'], operands: [0, 3] },
  {
    tool: 'diff',
    plain: ['-u', '-q', '-i', '--brief', '-w', '-N'],
    operands: [1, 2],
    skip: ['-X', '--exclude-from'],
  },
  { tool: 'du', plain: ['-s', '-a', '-h', '-c', '--apparent-size'], operands: [0, 2] },
  { tool: 'wc', plain: ['-l', '-c', '-w', '--lines', '-m'], operands: [0, 3] },
  { tool: 'head', plain: ['-q', '-v', '-z', '--verbose'], operands: [0, 3] },
  { tool: 'tail', plain: ['-q', '-v', '-z', '--verbose'], operands: [0, 3] },
  { tool: 'cat', plain: ['-n', '-A', '-b', '-s', '--number', '-vET'], operands: [0, 3] },
  {
    tool: 'tar',
    fixed: ['-t'],
    plain: ['-v', '--verbose', '--numeric-owner', '--utc'],
    operands: [0, 1],
    skip: ['--owner-map', '--group-map'],
  },
  { tool: 'strings', plain: ['-a', '-f', '-w', '-d', '--print-file-name'], operands: [0, 3] },
  { tool: 'readelf', fixed: ['-h'], plain: ['-W', '-S', '--wide', '-s'], operands: [1, 2] },
  { tool: 'objdump', fixed: ['-f'], plain: ['-h', '-w', '--syms', '-x'], operands: [1, 2] },
  { tool: 'hexdump', plain: ['-C', '-v', '-b', '--canonical'], operands: [0, 2] },
  { tool: 'file', plain: ['-b', '-L', '-k', '--brief', '-i'], operands: [1, 2] },
  { tool: 'cut', fixed: ['-f1'], plain: ['-s', '-z', '--complement'], operands: [0, 3] },
  { tool: 'nl', plain: ['-p', '--no-renumber'], valued: ['-s', '--number-separator'], operands: [0, 2] },
  { tool: 'od', plain: ['-c', '-v', '-b', '--output-duplicates'], operands: [0, 2] },
  { tool: 'tac', plain: ['-b', '-r', '--before'], valued: ['-s', '--separator'], operands: [0, 2] },
  { tool: 'md5sum', plain: ['-b', '-t', '--tag', '-z'], operands: [0, 3] },
  { tool: 'date', plain: ['-u', '-R', '--utc'], operands: [0, 0] },
  { tool: 'pgrep', plain: ['-l', '-c', '-x'], operands: [0, 0] },
  { tool: 'comm', plain: ['-1', '-2', '-3', '--nocheck-order'], operands: [2, 2] },
  { tool: 'cksum', plain: ['--tag', '-z', '--untagged'], operands: [0, 2] },
]

const CASES_PER_FAMILY = 12
const SEED = 21_021

/** A file name the generator made, so the trace can be filtered to them. */
const NAMES = ['F1', 'F2', 'F3', 'P1', 'P2', 'P3', 'P4', 'R1']

function fileFlags(policy: CommandPolicy, skip: readonly string[] = []): string[] {
  return Object.entries(policy.flags)
    .filter(([flag, kind]) => (kind === 'file' || kind === 'fileList') && !skip.includes(flag))
    .map(([flag]) => flag)
}

/** `--file` as `--fi`, `--fil` or `--file`: any prefix getopt reads as this option. */
function spelling(random: () => number, policy: CommandPolicy, flag: string): string {
  if (!flag.startsWith('--') || policy.exactLongOptions) return flag
  const prefixes: string[] = []
  for (let length = 3; length <= flag.length; length += 1) {
    const prefix = flag.slice(0, length)
    const resolved = resolveLongOption(policy, prefix)
    if (resolved.kind === 'option' && resolved.name === flag) prefixes.push(prefix)
  }
  return pick(random, prefixes.length > 0 ? prefixes : [flag])
}

function valueWords(
  random: () => number,
  policy: CommandPolicy,
  flag: string,
  value: string,
  plain: string[],
): string[] {
  const written = spelling(random, policy, flag)
  if (written.startsWith('--')) return random() < 0.5 ? [`${written}=${value}`] : [written, value]
  const before = plain.filter((word) => /^-[^-]$/.test(word))
  const cluster = before.length > 0 && random() < 0.4 ? pick(random, before).slice(1) : ''
  return random() < 0.5
    ? [`-${cluster}${written.slice(1)}${value}`]
    : [`-${cluster}${written.slice(1)}`, value]
}

function generate(random: () => number, family: Family, policy: CommandPolicy): string[] {
  const flagged: string[][] = []
  const fileValues = ['F1', 'F2', 'F3']
  const candidates = fileFlags(policy, family.skip)
  const fileCount = candidates.length === 0 ? 0 : Math.floor(random() * 3)
  for (let index = 0; index < fileCount; index += 1)
    flagged.push(
      valueWords(random, policy, pick(random, candidates), fileValues[index] as string, family.plain),
    )
  for (let index = Math.floor(random() * 3); index > 0; index -= 1) {
    const flag = pick(random, family.plain)
    flagged.push([flag.startsWith('--') ? spelling(random, policy, flag) : flag])
  }
  const valued =
    family.valued && random() < 0.7
      ? valueWords(random, policy, pick(random, family.valued), pick(random, ['P2', 'P3']), family.plain)
      : []
  const [min, max] = family.operands
  const operands = ['P1', 'P2', 'P3'].slice(0, min + Math.floor(random() * (max - min + 1)))
  const gavePattern = flagged.some((words) => /^-(?:e|f)|^--(?:re|fi)/.test(words[0] as string))
  if (family.patternFirst && !gavePattern) operands.unshift('x')
  if (policy.responseFiles && random() < 0.4) operands.push('@R1')
  // getopt permutes: flags may stand between operands, unless a `--` ends them first.
  const words: string[] = [...(family.fixed ?? [])]
  const pending = [...flagged]
  for (const operand of operands) {
    if (pending.length > 0 && random() < 0.5) words.push(...(pending.shift() as string[]))
    words.push(operand)
  }
  for (const rest of pending) words.push(...rest)
  // After the operands, where POSIXLY_CORRECT makes the value word a file.
  words.push(...valued)
  if (random() < 0.25) words.push('--', 'P4')
  return [family.tool, ...words]
}

function prepare(): string {
  const root = mkdtempSync(join(tmpdir(), 'shellgate-files-agree-'))
  const cwd = join(root, 'run')
  mkdirSync(cwd)
  mkdirSync(join(root, 'workspace'))
  for (const name of NAMES) writeFileSync(join(cwd, name), 'x\n')
  // The response file names one more operand, known only when it is read.
  writeFileSync(join(cwd, 'R1'), 'P4\n')
  return cwd
}

function quote(word: string): string {
  return /^[\w@=.,:/+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

describe.each(FAMILIES)('$tool: the verdict judges every file the real tool opens', (family) => {
  it(`${CASES_PER_FAMILY} generated lines (seed ${SEED})`, async () => {
    const policy = COMMAND_POLICIES.get(family.tool) as CommandPolicy
    const random = seededRandom(SEED + family.tool.length * 7919 + (family.tool.codePointAt(0) ?? 0))
    let accepted = 0
    for (let round = 0; round < CASES_PER_FAMILY; round += 1) {
      const argv = generate(random, family, policy)
      const line = argv.map(quote).join(' ')
      const cwd = prepare()
      try {
        // The workspace is elsewhere, so every file the verdict judges shows up as a question.
        const verdict = classifyCommand(line, {
          cwd,
          workspace: join(dirname(cwd), 'workspace'),
          platform: 'linux',
          home: cwd,
        })
        if (!verdict.readOnly) continue
        accepted += 1
        const asks = verdict.asks ?? []
        if (asks.some((ask) => ask.path === '(known at run time)')) continue
        const judged = new Set(asks.map((ask) => basename(ask.path)))
        // The verdict cannot see the environment: POSIXLY_CORRECT ends options at the first operand.
        const run = await traceRun(argv, cwd, random() < 0.5 ? { POSIXLY_CORRECT: '1' } : {})
        const opened = run.opened
          .filter((file) => !file.includes('/') || dirname(file) === cwd)
          .map((file) => basename(file))
          .filter((name) => NAMES.includes(name))
        expect({
          line,
          unjudged: [...new Set(opened)].filter((name) => !judged.has(name)),
          ran: run.executed,
        }).toEqual({
          line,
          unjudged: [],
          ran: [],
        })
      } finally {
        rmSync(dirname(cwd), { recursive: true, force: true })
      }
    }
    // The generator must exercise the verdict, not only its refusals.
    expect(accepted, `${family.tool}: accepted lines`).toBeGreaterThan(CASES_PER_FAMILY / 3)
  })
})
