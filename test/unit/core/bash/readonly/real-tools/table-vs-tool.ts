import { spawnSync } from 'node:child_process'
import type { CommandPolicy, FlagValueKind } from '../../../../../../src/main/core/bash/readonly/flag-types'
import {
  longProbe,
  probeTool,
  readLongAnswer,
  readShortAnswer,
  requiredProbe,
  shortProbes,
} from './tool-probe'

/** One disagreement between a table and the real tool, in words a reader can act on. */
export type Mismatch = string

const REQUIRED_KINDS: ReadonlySet<FlagValueKind> = new Set([
  'number',
  'string',
  'char',
  '{}',
  'EOF',
  'file',
  'fileList',
])

/**
 * Ask the installed tool's own getopt_long about every option of the table: each allowed option
 * must exist under exactly that name with the same kind of argument (none, required, optional),
 * and each refused one must exist. An option the table has that the tool lacks is what makes an
 * abbreviation resolve differently (`--fo` ours for `--foo`, the tool's for `--force`), so this is
 * the direction that keeps abbreviations safe.
 */
export async function compareWithTool(tool: string, policy: CommandPolicy): Promise<Mismatch[]> {
  const questions: Question[] = []
  for (const [flag, kind] of Object.entries(policy.flags)) {
    if (flag.startsWith('--')) questions.push(longQuestion(tool, flag, kind))
    else if (/^-.$/.test(flag)) questions.push(shortQuestion(tool, flag, kind))
  }
  for (const flag of Object.keys(policy.refusedFlags ?? {})) {
    if (flag.startsWith('--')) questions.push(refusedLongQuestion(tool, flag))
    else if (/^-.$/.test(flag)) questions.push(refusedShortQuestion(tool, flag))
  }
  // One quick probe settles most short options; only the rest are asked in full, in a second batch.
  const quick = questions.filter((question) => question.quick !== undefined)
  const quickResults = await probeTool(
    tool,
    quick.map((question) => question.quick?.args ?? []),
  )
  const unsettled = questions.filter(
    (question) =>
      question.quick === undefined || !question.quick.settles(quickResults[quick.indexOf(question)] as never),
  )
  const full = await probeTool(
    tool,
    unsettled.flatMap((question) => question.args),
  )
  const problems: string[] = []
  let at = 0
  for (const question of unsettled) {
    const problem = question.judge(full.slice(at, at + question.args.length))
    at += question.args.length
    if (problem) problems.push(problem)
  }
  return problems
}

type Results = Awaited<ReturnType<typeof probeTool>>

interface Question {
  /** A single probe that, when it says the expected thing, settles the question. */
  quick?: { args: string[]; settles: (result: Results[number]) => boolean }
  args: string[][]
  judge: (results: Results) => string | null
}

function longQuestion(tool: string, flag: string, kind: FlagValueKind): Question {
  if (kind === 'none')
    return {
      args: [longProbe(flag)],
      judge: ([result]) => {
        const answer = readLongAnswer(result as never)
        return answer.kind === 'noArgument' && answer.name === flag
          ? null
          : `${flag}: the table says it takes no value; ${tool} says ${spell(answer)}`
      },
    }
  if (REQUIRED_KINDS.has(kind))
    return {
      args: [requiredProbe(flag)],
      judge: ([result]) => {
        const answer = readLongAnswer(result as never)
        return answer.kind === 'requiresArgument' && answer.name === flag
          ? null
          : `${flag}: the table says it needs a value; ${tool} says ${spell(answer)}`
      },
    }
  return {
    args: [longProbe(flag), requiredProbe(flag)],
    judge: ([attached, alone]) => {
      const answer = readLongAnswer(attached as never)
      const last = readLongAnswer(alone as never)
      return answer.kind === 'accepted' && last.kind !== 'requiresArgument'
        ? null
        : `${flag}: the table says its value is optional; ${tool} says ${spell(answer)} / ${spell(last)}`
    },
  }
}

function shortQuestion(tool: string, flag: string, kind: FlagValueKind): Question {
  const letter = flag.slice(1)
  const expected = kind === 'none' ? 'none' : REQUIRED_KINDS.has(kind) ? 'required' : 'optional'
  const quick =
    expected === 'none'
      ? {
          args: [`-${letter}}`],
          settles: (result: Results[number]) => /invalid option -- '}'/.test(result.stderr),
        }
      : expected === 'required'
        ? {
            args: [`-${letter}`],
            settles: (result: Results[number]) => /option requires an argument -- /.test(result.stderr),
          }
        : undefined
  return {
    quick,
    args: shortProbes(letter),
    judge: ([alone, withBrace, readsOn]) => {
      const answer = readShortAnswer(alone as never, withBrace as never, readsOn as never)
      // An option the tool acts on at once reads no value, attached or not.
      const agrees = answer === expected || (answer === 'exits' && expected !== 'required')
      return agrees ? null : `${flag}: the table says ${expected}; ${tool} says ${answer}`
    },
  }
}

function refusedLongQuestion(tool: string, flag: string): Question {
  return {
    args: [longProbe(flag)],
    judge: ([result]) => {
      const answer = readLongAnswer(result as never)
      const named = 'name' in answer ? answer.name : flag
      return answer.kind !== 'unknown' && answer.kind !== 'ambiguous' && named === flag
        ? null
        : `${flag} (refused): ${tool} says ${spell(answer)}`
    },
  }
}

function refusedShortQuestion(tool: string, flag: string): Question {
  const letter = flag.slice(1)
  return {
    quick: {
      args: [`-${letter}}`],
      settles: (result) => !new RegExp(`invalid option -- '${escapeRegExp(letter)}'`).test(result.stderr),
    },
    args: shortProbes(letter),
    judge: ([alone, withBrace, readsOn]) => {
      const answer = readShortAnswer(alone as never, withBrace as never, readsOn as never)
      return answer !== 'unknown' ? null : `${flag} (refused): ${tool} does not have it`
    },
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function spell(answer: ReturnType<typeof readLongAnswer>): string {
  if (answer.kind === 'ambiguous') return `ambiguous (${answer.candidates.join(' ')})`
  if (answer.kind === 'noArgument') return `${answer.name} takes no value`
  if (answer.kind === 'requiresArgument') return `${answer.name} needs a value`
  return answer.kind
}

// `--help` lines that list options: leading blanks, then a dash (GNU, util-linux, procps, binutils).
const OPTION_LINE = /^\s{1,12}(-[^\s,=[<]+)(?:[,\s]|$)/
const LONG_OPTION = /(?<![\w-])--[A-Za-z0-9][\w-]*/g

/**
 * The options the tool's `--help` names that the table lacks (an option the table does not know
 * is refused, so this is about false refusals, not safety). `ignore` lists documented names the
 * table leaves out on purpose, with the reason beside them in the test.
 */
export function missingFromTable(
  tool: string,
  policy: CommandPolicy,
  ignore: readonly string[] = [],
): string[] {
  const help = spawnSync(tool, ['--help'], {
    encoding: 'utf8',
    input: '',
    env: { ...process.env, LC_ALL: 'C' },
  })
  const text = `${help.stdout}${help.stderr}`
  const known = new Set([...Object.keys(policy.flags), ...Object.keys(policy.refusedFlags ?? {}), ...ignore])
  const named = new Set<string>()
  for (const line of text.split('\n')) {
    const short = OPTION_LINE.exec(line)?.[1]
    if (short && /^-[A-Za-z0-9]$/.test(short)) named.add(short)
    if (/^\s{1,30}-/.test(line)) for (const match of line.matchAll(LONG_OPTION)) named.add(match[0])
  }
  return [...named].filter((flag) => !known.has(flag)).sort()
}
