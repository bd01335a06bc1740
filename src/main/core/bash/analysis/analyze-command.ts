import { type AndOr, type Command, type Pipeline, type PipelineNode, parse, type Statement } from 'unbash'
import type { Connector, EnvAssignment, Redirect } from '../verdict'
import type { AnalyzedCommand, CommandAnalysis, WordExpansion, WordGlob } from './command-analysis'
import { shapeWord, type ShapedWord } from './word-shape'
import { isSafeLoopVariable } from './loop-variables'
import { judgeArithmetic } from './literal-arithmetic'
import { judgeTest } from './test-expression'
import { readRedirect } from './redirects'
import { findUncoveredText, type SourceSpan } from './source-coverage'
import { JOINED_LINES_REASON, sameReading, withLinesJoined } from './joined-lines'
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
  Redirected: 'redirected compound command',
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

interface Walk {
  source: string
  commands: AnalyzedCommand[]
  unsupported: string[]
  spans: SourceSpan[]
  /** An if or a for was walked into. */
  compound?: boolean
  /** A word went through brace expansion. */
  braces?: boolean
  /** Loop variables whose every value is an integer literal, while their loop body is walked. */
  counters: Set<string>
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

function analyzeOrThrow(command: string, checkJoins = true): CommandAnalysis {
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
  const joined = checkJoins ? withLinesJoined(command, script) : null
  const walk: Walk = { source: command, commands: [], unsupported: [], spans: [], counters: new Set() }
  script.commands.forEach((statement, index) => {
    walkStatement(walk, statement, index === 0 ? null : ';')
  })
  const stray = findUncoveredText(command, walk.spans)
  if (stray !== null)
    return parseFailure(command, `unexpected text the parser skipped: ${JSON.stringify(stray)}`)
  // Read both ways, a line with continuations glued to a word must say the same (see withLinesJoined).
  if (joined !== null && !sameReading(walk.commands, analyzeOrThrow(joined, false)))
    return parseFailure(command, JOINED_LINES_REASON)
  const dynamic = walk.commands.some((part) => part.dynamicParts.length > 0)
  return {
    command,
    parsed: true,
    parseError: null,
    commands: walk.commands,
    unsupported: walk.unsupported,
    // Rules match simple commands; one inside an if or a for is not what a prefix rule describes.
    // A rule matches the text as written; after brace expansion the argv is not that text.
    permissionSafe: walk.unsupported.length === 0 && !dynamic && !walk.compound && !walk.braces,
  }
}

function refuseBeforeParsing(command: string): string | null {
  if (command.length > MAX_COMMAND_CHARS) {
    return `the command is ${command.length} characters, over the ${MAX_COMMAND_CHARS}-character limit`
  }
  // Bash cannot pass a NUL inside an argument, so a line holding one is not what it looks like.
  if (command.includes('\0')) return 'the command contains a NUL byte'
  // bash reads a carriage return as part of a word (`ls\r` is a command named "ls\r"); the parser
  // reads it as a blank, so the words we would judge are not the ones bash runs.
  if (command.includes('\r')) return 'the command contains a carriage return, which bash keeps inside words'
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
  else if (node.type === 'If' || node.type === 'For') walkCompound(walk, node, connector)
  else if (node.type === 'TestCommand' || node.type === 'ArithmeticCommand')
    walkTestOrArithmetic(walk, node, connector)
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
  const words: ShapedWord[] = []
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
    addWord(shapeWord(node.name, readWord(node.name)), words, dynamicParts)
    wordExpansions.push(...listWordExpansions(node.name))
  }
  for (const item of node.suffix) {
    walk.spans.push([item.pos, item.end])
    if (item.type === 'Word') {
      addWord(shapeWord(item, readWord(item)), words, dynamicParts)
      wordExpansions.push(...listWordExpansions(item))
      continue
    }
    const before = dynamicParts.length
    if (item.type === 'Assignment') addWord(shapeAssignment(item), words, dynamicParts)
    else addRedirect(walk, item, redirects, dynamicParts)
    if (dynamicParts.length > before) dynamicOutsideWords = true
  }
  // One pass over the words: flatMap and map per field made a small array per word, per field.
  const leadingGlobArgs: number[] = []
  const globArgs: number[] = []
  const globs: Array<WordGlob | null> = []
  const wordValues: Array<string | null> = []
  let dynamicWord = false
  let braceExpanded = false
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as ShapedWord
    if (word.glob?.bash) {
      globArgs.push(index)
      if (word.glob.prefix === '') leadingGlobArgs.push(index)
    }
    globs.push(word.glob)
    wordValues.push(word.value)
    if (word.value === null) dynamicWord = true
    if (word.braces) braceExpanded = true
  }
  if (braceExpanded) walk.braces = true
  walk.commands.push({
    text: walk.source.slice(node.pos, node.end),
    argv: dynamicWord ? null : (wordValues.slice() as string[]),
    envAssignments,
    redirects,
    connector,
    dynamicParts,
    leadingGlobArgs,
    globArgs,
    globs,
    braceExpanded,
    wordValues,
    wordExpansions,
    dynamicOutsideWords,
  })
}

/** One source word becomes one or more words (brace expansion), or one dynamic word. */
function addWord(
  shaped: ShapedWord[] | { dynamicPart: string },
  words: ShapedWord[],
  dynamicParts: string[],
): void {
  if ('dynamicPart' in shaped) {
    dynamicParts.push(shaped.dynamicPart)
    words.push({ value: null, glob: null, braces: false })
  } else words.push(...shaped)
}

/** `export A=1` passes `A=1` as an argument; an array value `a=(…)` is treated as dynamic. */
function shapeAssignment(item: Extract<Command['suffix'][number], { type: 'Assignment' }>) {
  if (item.value.type !== 'Word') return { dynamicPart: item.text }
  const indexPart = item.index ? readWord(item.index).dynamicPart : null
  if (indexPart) return { dynamicPart: indexPart }
  const operator = item.append ? '+=' : '='
  const index = item.index ? `[${item.index.value}]` : ''
  // `cmd a=*` still expands the glob and braces (only declaration builtins assign).
  return shapeWord(item.value, readWord(item.value), `${item.name}${index}${operator}`)
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

type IfNode = Extract<PipelineNode, { type: 'If' }>
type ForNode = Extract<PipelineNode, { type: 'For' }>

// What bash reads between the commands of an if or a for: keywords and separators, nothing else.
const COMPOUND_GLUE =
  /^(?:\s|;|&&|\|\||\||\bif\b|\bthen\b|\belif\b|\belse\b|\bfi\b|\bfor\b|\bin\b|\bdo\b|\bdone\b)*$/

/**
 * `if`/`for` (class 7): every command inside is walked as one more simple command, so the line is
 * read-only only when each of them is. The text between them must be keywords and separators;
 * a for loop needs a lowercase variable and words known before it runs.
 */
function walkCompound(walk: Walk, node: IfNode | ForNode, connector: Connector | null): void {
  const inner: Walk = { ...walk, spans: [] }
  let problem: string | null = null
  const walkList = (list: { commands: readonly Statement[] } | undefined, first: Connector | null) => {
    list?.commands.forEach((statement, index) => {
      walkStatement(inner, statement, index === 0 ? first : ';')
    })
  }
  if (node.type === 'If') {
    walkList(node.clause, connector)
    walkList(node.then, ';')
    for (const elif of node.elif ?? []) {
      walkList(elif.clause, ';')
      walkList(elif.then, ';')
    }
    walkList(node.else, ';')
  } else {
    if (!isSafeLoopVariable(node.name.value)) problem = `for loop variable ${node.name.value}`
    inner.spans.push([node.name.pos, node.name.end])
    for (const word of node.wordlist ?? []) {
      inner.spans.push([word.pos, word.end])
      if (readWord(word).dynamicPart) problem = `for over words computed at run time (${word.text})`
    }
    if (!node.wordlist) problem = 'for without a word list (it loops over "$@")'
    const before = walk.commands.length
    // `for i in 1 2 3` (or `{1..3}`): i is a counter that `(( … ))` may use and change.
    const integers = (node.wordlist ?? []).every((word) => {
      const shaped = shapeWord(word, readWord(word))
      return (
        !('dynamicPart' in shaped) && shaped.every((made) => /^-?(?:0|[1-9][0-9]*)$/.test(made.value ?? ''))
      )
    })
    const name = node.name.value
    const outerCounter = walk.counters.has(name)
    const counter = integers && node.wordlist !== undefined && !outerCounter
    // An inner loop over other words rebinds an outer counter: inside it, i is no longer an integer.
    const shadows = outerCounter && !integers
    if (counter) walk.counters.add(name)
    if (shadows) walk.counters.delete(name)
    walkList(node.body, connector)
    if (counter) walk.counters.delete(name)
    if (shadows) walk.counters.add(name)
    if (counter && reassignsCounter(name, walk.commands.slice(before)))
      problem = `loop counter ${name} is assigned inside its loop, so (( … )) could evaluate any value`
    // The folder tracking follows each cd once; in a loop it would run again and again.
    const mover = walk.commands
      .slice(before)
      .find((part) => ['cd', 'pushd', 'popd'].includes(part.wordValues[0] ?? ''))
    if (mover) problem = `${mover.wordValues[0]} inside a for loop`
  }
  const glue = textOutside(walk.source, node.pos, node.end, inner.spans)
  if (!COMPOUND_GLUE.test(glue))
    problem = `${node.type === 'If' ? 'if' : 'for'} with text we do not follow: ${JSON.stringify(glue.trim().slice(0, 40))}`
  if (problem) walk.unsupported.push(problem)
  walk.compound = true
  walk.spans.push(...inner.spans, [node.pos, node.end])
}

/**
 * Whether a command of the loop body may give the counter a value that is not an integer
 * (`read i`, `i=$(…)`, `printf -v i`, `declare -n r=i`): any mention of the name other than a
 * plain read (`$i`, `${i}`) counts, so `(( i ))` is then not followed. The (( … )) themselves only
 * ever assign integers.
 */
function reassignsCounter(name: string, body: readonly AnalyzedCommand[]): boolean {
  const mention = new RegExp(`(?<![$\\w{])${name}(?!\\w)`)
  return body.some((part) => part.keyword !== '((' && mention.test(part.text))
}

type TestNode = Extract<PipelineNode, { type: 'TestCommand' }>
type ArithmeticNode = Extract<PipelineNode, { type: 'ArithmeticCommand' }>

/**
 * `[[ … ]]` and `(( … ))` (issue 21.5) become one simple command named `[[` or `((` when every
 * operand is one this reading follows (test-expression.ts, literal-arithmetic.ts); the variables they read are
 * listed for the credential check. Anything else is not analysed.
 */
function walkTestOrArithmetic(
  walk: Walk,
  node: TestNode | ArithmeticNode,
  connector: Connector | null,
): void {
  walk.spans.push([node.pos, node.end])
  walk.compound = true
  const name = node.type === 'TestCommand' ? '[[' : '(('
  const judged =
    node.type === 'TestCommand' ? judgeTest(node.expression) : judgeArithmetic(node.expression, walk.counters)
  if ('problem' in judged) {
    walk.unsupported.push(`${name} … ${name === '[[' ? ']]' : '))'} (${judged.problem})`)
    return
  }
  walk.commands.push({
    text: walk.source.slice(node.pos, node.end),
    argv: [name],
    envAssignments: [],
    redirects: [],
    connector,
    dynamicParts: [],
    leadingGlobArgs: [],
    globArgs: [],
    globs: [null],
    braceExpanded: false,
    wordValues: [name],
    wordExpansions: 'reads' in judged ? judged.reads : [],
    dynamicOutsideWords: false,
    keyword: name,
  })
}

/** The source between start and end that no span covers, joined by spaces. */
function textOutside(source: string, start: number, end: number, spans: SourceSpan[]): string {
  const sorted = spans.filter(([a, b]) => a >= start && b <= end).sort((a, b) => a[0] - b[0])
  let cursor = start
  let text = ''
  for (const [a, b] of sorted) {
    if (a > cursor) text += ` ${source.slice(cursor, a)} `
    cursor = Math.max(cursor, b)
  }
  if (end > cursor) text += ` ${source.slice(cursor, end)} `
  return text
}
