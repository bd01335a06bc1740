import { type AndOr, type Command, type Pipeline, type PipelineNode, parse, type Statement } from 'unbash'
import type { Connector, EnvAssignment, Redirect } from '../verdict'
import type { AnalyzedCommand, CommandAnalysis, WordExpansion } from './command-analysis'
import { readRedirect } from './redirects'
import { findUncoveredText, type SourceSpan } from './source-coverage'
import { listWordExpansions, readWord } from './word-value'

/** Longer lines are refused unparsed: nobody approves what they cannot read, and parsing stays bounded. */
export const MAX_COMMAND_CHARS = 10_000

const UNSUPPORTED_NAMES: Record<string, string> = {
  Subshell: 'subshell ( … )',
  BraceGroup: 'group { … }',
  If: 'if',
  For: 'for',
  ArithmeticFor: 'for (( … ))',
  Select: 'select',
  While: 'while/until',
  Case: 'case',
  Function: 'function definition',
  Coproc: 'coproc',
  TestCommand: '[[ … ]]',
  ArithmeticCommand: '(( … ))',
  Redirected: 'redirected compound command',
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

interface Walk {
  source: string
  commands: AnalyzedCommand[]
  unsupported: string[]
  spans: SourceSpan[]
}

/** Split a command line into the simple commands bash would run; never throws. */
export function analyzeCommand(command: string): CommandAnalysis {
  try {
    return analyzeOrThrow(command)
  } catch (error) {
    return parseFailure(
      typeof command === 'string' ? command : String(command),
      `the analysis failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

function analyzeOrThrow(command: string): CommandAnalysis {
  if (typeof command !== 'string') return parseFailure(String(command), 'the command is not a string')
  const refused = refuseBeforeParsing(command)
  if (refused) return parseFailure(command, refused)
  let script: ReturnType<typeof parse>
  try {
    script = parse(command)
  } catch (error) {
    return parseFailure(
      command,
      `the parser failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const firstError = script.errors?.[0]
  if (firstError) return parseFailure(command, `${firstError.message} at offset ${firstError.pos}`)
  const walk: Walk = { source: command, commands: [], unsupported: [], spans: [] }
  script.commands.forEach((statement, index) => {
    walkStatement(walk, statement, index === 0 ? null : ';')
  })
  const stray = findUncoveredText(command, walk.spans)
  if (stray !== null)
    return parseFailure(command, `unexpected text the parser skipped: ${JSON.stringify(stray)}`)
  const dynamic = walk.commands.some((part) => part.dynamicParts.length > 0)
  return {
    command,
    parsed: true,
    parseError: null,
    commands: walk.commands,
    unsupported: walk.unsupported,
    permissionSafe: walk.unsupported.length === 0 && !dynamic,
  }
}

function refuseBeforeParsing(command: string): string | null {
  if (command.length > MAX_COMMAND_CHARS) {
    return `the command is ${command.length} characters, over the ${MAX_COMMAND_CHARS}-character limit`
  }
  // Bash cannot pass a NUL inside an argument, so a line holding one is not what it looks like.
  if (command.includes('\0')) return 'the command contains a NUL byte'
  // An unpaired surrogate reaches the shell as U+FFFD: the words we judged are not the ones it runs.
  if (UNPAIRED_SURROGATE.test(command)) return 'the command contains an unpaired UTF-16 surrogate'
  return null
}

function parseFailure(command: string, reason: string): CommandAnalysis {
  return {
    command,
    parsed: false,
    parseError: reason,
    commands: [],
    unsupported: [],
    permissionSafe: false,
  }
}

function walkStatement(walk: Walk, statement: Statement, connector: Connector | null): void {
  if (statement.background) walk.unsupported.push('background &')
  walkNode(walk, statement.command, connector)
}

function walkNode(walk: Walk, node: PipelineNode | AndOr, connector: Connector | null): void {
  if (node.type === 'AndOr') walkAndOr(walk, node, connector)
  else if (node.type === 'Pipeline') walkPipeline(walk, node, connector)
  else if (node.type === 'Command') walkCommand(walk, node, connector)
  else {
    walk.unsupported.push(UNSUPPORTED_NAMES[node.type] ?? node.type)
    walk.spans.push([node.pos, node.end])
  }
}

function walkAndOr(walk: Walk, node: AndOr, connector: Connector | null): void {
  node.commands.forEach((child, index) => {
    walkNode(walk, child, index === 0 ? connector : (node.operators[index - 1] ?? '&&'))
  })
}

function walkPipeline(walk: Walk, node: Pipeline, connector: Connector | null): void {
  // `time` and `!` only time or negate the pipeline; they run nothing of their own.
  for (const prefix of node.prefixes) walk.spans.push([prefix.pos, prefix.end])
  node.commands.forEach((child, index) => {
    walkNode(walk, child, index === 0 ? connector : (node.operators[index - 1] ?? '|'))
  })
}

function walkCommand(walk: Walk, node: Command, connector: Connector | null): void {
  const envAssignments: EnvAssignment[] = []
  const redirects: Redirect[] = []
  const dynamicParts: string[] = []
  const words: Array<{ value: string | null; leadingGlob: boolean; glob: boolean }> = []
  const wordExpansions: WordExpansion[] = []
  for (const item of node.prefix) {
    walk.spans.push([item.pos, item.end])
    if (item.type === 'Assignment') {
      const value = item.value.type === 'Word' ? readWord(item.value) : null
      const indexPart = item.index ? readWord(item.index).dynamicPart : null
      if (!value) dynamicParts.push(item.text)
      else if (value.dynamicPart) dynamicParts.push(value.dynamicPart)
      if (indexPart) dynamicParts.push(indexPart)
      envAssignments.push({ name: item.name, value: value?.value ?? null })
    } else {
      addRedirect(walk, item, redirects, dynamicParts)
    }
  }
  // Assignments and redirects before the name hold run-time parts the word rules do not cover.
  let dynamicOutsideWords = dynamicParts.length > 0
  if (node.name) {
    walk.spans.push([node.name.pos, node.name.end])
    addWord(readWord(node.name), words, dynamicParts)
    wordExpansions.push(...listWordExpansions(node.name))
  }
  for (const item of node.suffix) {
    walk.spans.push([item.pos, item.end])
    if (item.type === 'Word') {
      addWord(readWord(item), words, dynamicParts)
      wordExpansions.push(...listWordExpansions(item))
      continue
    }
    const before = dynamicParts.length
    if (item.type === 'Assignment') addWord(readAssignmentWord(item), words, dynamicParts)
    else addRedirect(walk, item, redirects, dynamicParts)
    if (dynamicParts.length > before) dynamicOutsideWords = true
  }
  const dynamicWord = words.some((word) => word.value === null)
  walk.commands.push({
    text: walk.source.slice(node.pos, node.end),
    argv: dynamicWord ? null : words.map((word) => word.value as string),
    envAssignments,
    redirects,
    connector,
    dynamicParts,
    leadingGlobArgs: words.flatMap((word, index) => (word.leadingGlob ? [index] : [])),
    globArgs: words.flatMap((word, index) => (word.glob ? [index] : [])),
    wordValues: words.map((word) => word.value),
    wordExpansions,
    dynamicOutsideWords,
  })
}

function addWord(
  reading: ReturnType<typeof readWord>,
  words: Array<{ value: string | null; leadingGlob: boolean; glob: boolean }>,
  dynamicParts: string[],
): void {
  if (reading.dynamicPart) dynamicParts.push(reading.dynamicPart)
  words.push({ value: reading.value, leadingGlob: reading.leadingGlob, glob: reading.glob })
}

/** `export A=1` passes `A=1` as an argument; an array value `a=(…)` is treated as dynamic. */
function readAssignmentWord(item: Extract<Command['suffix'][number], { type: 'Assignment' }>) {
  if (item.value.type !== 'Word')
    return { value: null, dynamicPart: item.text, leadingGlob: false, glob: false }
  const indexPart = item.index ? readWord(item.index).dynamicPart : null
  if (indexPart) return { value: null, dynamicPart: indexPart, leadingGlob: false, glob: false }
  const value = readWord(item.value)
  if (value.value === null) return value
  const operator = item.append ? '+=' : '='
  const index = item.index ? `[${item.index.value}]` : ''
  // `cmd a=*` still expands the glob (only declaration builtins assign), so the flag carries over.
  return {
    value: `${item.name}${index}${operator}${value.value}`,
    dynamicPart: null,
    leadingGlob: false,
    glob: value.glob,
  }
}

function addRedirect(
  walk: Walk,
  item: Extract<Command['suffix'][number], { type: 'Redirect' | 'HereString' | 'HereDoc' }>,
  redirects: Redirect[],
  dynamicParts: string[],
): void {
  const read = readRedirect(item)
  redirects.push(read.redirect)
  if (read.dynamicPart) dynamicParts.push(read.dynamicPart)
  if (item.type === 'HereDoc') {
    walk.spans.push([item.body.pos, item.body.end])
    if (item.closing) walk.spans.push([item.closing.pos, item.closing.end])
  }
}
