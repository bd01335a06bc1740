import type { TestExpression, Word } from 'unbash'
import type { WordExpansion } from './command-analysis'
import { listWordExpansions, readWord } from './word-value'

/** What a `[[ … ]]` reads: nothing but these variables (for the credential check). */
export type Judged = { problem: string } | { reads: WordExpansion[] }

const FILE_TESTS = new Set('-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S'.split(' '))
const STRING_TESTS = new Set(['-n', '-z'])
const STRING_COMPARISONS = new Set(['==', '=', '!=', '=~', '<', '>', '-nt', '-ot', '-ef'])
const NUMBER_COMPARISONS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const INTEGER = /^[-+]?(?:0|[1-9][0-9]*)$/
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const PLAIN_PARAMETER = /^"?\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)"?$/

/**
 * `[[ … ]]` (issue 21.5): file tests (`-f`, `-d`, `-e`…), string tests and comparisons, and `-v
 * NAME`, whose operands are literal words or a plain `$NAME`: inside `[[ ]]` no word is split or
 * globbed, and these only look. Numeric comparisons (`-eq`…) evaluate their operands as arithmetic,
 * where `a[$(cmd)]` runs cmd, so theirs must be integer literals; `-v a[…]` likewise. Decided:
 * `-v NAME` of a credential name is read-only without a question, since it tells only that the
 * variable is set; comparing its value (`[[ $TOKEN == ghp_* ]]`) asks like any read of it.
 */
export function judgeTest(expression: TestExpression): Judged {
  const reads: WordExpansion[] = []
  const visit = (node: TestExpression): string | null => {
    if (node.type === 'TestLogical') {
      for (const operand of node.operands) {
        const problem = visit(operand)
        if (problem) return problem
      }
      return null
    }
    if (node.type === 'TestNot') return visit(node.operand)
    if (node.type === 'TestGroup') return visit(node.expression)
    if (node.type === 'TestUnary') {
      if (node.operator === '-v' || node.operator === '-o')
        return NAME.test(node.operand.value) && !node.operand.parts
          ? null
          : `[[ ${node.operator} ${node.operand.text} ]] evaluates what it names`
      if (!FILE_TESTS.has(node.operator) && !STRING_TESTS.has(node.operator))
        return `[[ ${node.operator} ]] is not a test known to only look`
      return operand(node.operand, reads)
    }
    if (NUMBER_COMPARISONS.has(node.operator)) {
      const literal = (word: Word) => !word.parts && INTEGER.test(word.value)
      return literal(node.left) && literal(node.right)
        ? null
        : `[[ ${node.left.text} ${node.operator} ${node.right.text} ]] evaluates its operands as arithmetic, which can run a command`
    }
    if (!STRING_COMPARISONS.has(node.operator))
      return `[[ ${node.operator} ]] is not a comparison known to only look`
    return operand(node.left, reads) ?? operand(node.right, reads)
  }
  const problem = visit(expression)
  return problem ? { problem } : { reads }
}

function operand(word: Word, reads: WordExpansion[]): string | null {
  const reading = readWord(word)
  if (reading.dynamicPart === null) return null
  if (!PLAIN_PARAMETER.test(word.text))
    return `${word.text} inside [[ ]] is expanded in a way this check does not follow`
  reads.push(...listWordExpansions(word))
  return null
}
