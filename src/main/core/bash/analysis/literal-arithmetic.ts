import type { ArithmeticExpression } from 'unbash'

// A decimal literal bash reads as itself: no leading zero (octal), no base prefix, and short enough
// that bash's 64-bit parse does not wrap it (19 digits could).
const DECIMAL = /^(?:0|[1-9][0-9]{0,17})$/
const OPERATORS = new Set(['+', '-', '*', '/', '%', '<', '>', '<=', '>=', '==', '!=', '&&', '||'])
const ASSIGNING = new Set(['=', '+=', '-=', '*=', '/=', '%=', '++', '--'])
const int64 = (value: bigint) => BigInt.asIntN(64, value)

/**
 * `(( … ))` and `$(( … ))` (issue 21.5): decimal literals, comparisons, the four operations, `!`,
 * unary signs, groups and `?:`, and names only of loop counters whose every value is an integer
 * literal (`for i in 1 2 3`), which may be assigned (`(( i++ ))`): any other name's value is
 * evaluated as arithmetic again, where `a[$(cmd)]` runs cmd. The value is bash's (64-bit, division
 * toward zero) when no counter is involved, null when one is.
 */
export function judgeArithmetic(
  expression: ArithmeticExpression | undefined,
  counters: ReadonlySet<string>,
): { problem: string } | { value: bigint | null } {
  if (expression === undefined) return { problem: 'an empty (( ))' }
  const value = evaluate(expression, counters)
  // bash refuses a division by zero and the command does not run; it is left to run time.
  if (value === DIVISION_BY_ZERO) return { problem: 'a division by zero' }
  return typeof value === 'string' ? { problem: value } : { value }
}

/** The value of `$(( … ))` with no names in it, or null. */
export function literalArithmeticValue(expression: ArithmeticExpression | undefined): string | null {
  const judged = judgeArithmetic(expression, new Set())
  return 'value' in judged && judged.value !== null ? judged.value.toString() : null
}

// bash stops at a division by zero only when it reaches it: `0 && 1/0` is 0, `1 ? 2 : 1/0` is 2.
const DIVISION_BY_ZERO = Symbol('division by zero')
type Evaluated = bigint | null | string | typeof DIVISION_BY_ZERO

function evaluate(node: ArithmeticExpression, counters: ReadonlySet<string>): Evaluated {
  const counter = (operand: ArithmeticExpression) =>
    operand.type === 'ArithmeticWord' && !operand.parts && counters.has(operand.value)
  switch (node.type) {
    case 'ArithmeticWord':
      if (!node.parts && DECIMAL.test(node.value)) return BigInt(node.value)
      if (counter(node)) return null
      return `${node.value} in arithmetic is evaluated again as arithmetic, which can run a command`
    case 'ArithmeticGroup':
      return evaluate(node.expression, counters)
    case 'ArithmeticUnary': {
      if (ASSIGNING.has(node.operator))
        return counter(node.operand) ? null : `${node.operator} assigns a variable that is not a loop counter`
      const value = evaluate(node.operand, counters)
      if (typeof value !== 'bigint') return value
      if (node.operator === '-') return int64(-value)
      if (node.operator === '+') return value
      if (node.operator === '!') return value === 0n ? 1n : 0n
      return `the arithmetic operator ${node.operator}`
    }
    case 'ArithmeticBinary': {
      if (ASSIGNING.has(node.operator)) {
        const value = evaluate(node.right, counters)
        if (!counter(node.left)) return `${node.operator} assigns a variable that is not a loop counter`
        return typeof value === 'string' ? value : null
      }
      if (!OPERATORS.has(node.operator)) return `the arithmetic operator ${node.operator}`
      const left = evaluate(node.left, counters)
      const right = evaluate(node.right, counters)
      // Every part is checked, reached or not: bash expands `$(…)` in the whole text first.
      if (typeof left === 'string') return left
      if (typeof right === 'string') return right
      if (left === null || right === null) return null
      if (left === DIVISION_BY_ZERO) return left
      if (node.operator === '&&' && left === 0n) return 0n
      if (node.operator === '||' && left !== 0n) return 1n
      if (right === DIVISION_BY_ZERO) return right
      return binary(node.operator, left, right)
    }
    case 'ArithmeticTernary': {
      const test = evaluate(node.test, counters)
      const consequent = evaluate(node.consequent, counters)
      const alternate = evaluate(node.alternate, counters)
      for (const part of [test, consequent, alternate]) if (typeof part === 'string') return part
      if (test === null || test === DIVISION_BY_ZERO) return test
      return test !== 0n ? consequent : alternate
    }
    default:
      return 'a command inside arithmetic'
  }
}

function binary(operator: string, left: bigint, right: bigint): bigint | typeof DIVISION_BY_ZERO {
  const truth = (value: boolean) => (value ? 1n : 0n)
  switch (operator) {
    case '+':
      return int64(left + right)
    case '-':
      return int64(left - right)
    case '*':
      return int64(left * right)
    case '/':
    case '%':
      if (right === 0n) return DIVISION_BY_ZERO
      return int64(operator === '/' ? left / right : left % right)
    case '<':
      return truth(left < right)
    case '>':
      return truth(left > right)
    case '<=':
      return truth(left <= right)
    case '>=':
      return truth(left >= right)
    case '==':
      return truth(left === right)
    case '!=':
      return truth(left !== right)
    case '&&':
      return truth(left !== 0n && right !== 0n)
    default:
      return truth(left !== 0n || right !== 0n)
  }
}
