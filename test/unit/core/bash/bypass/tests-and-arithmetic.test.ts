import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { analyzeCommand } from '../../../../../src/main/core/bash/analysis/analyze-command'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

const classify = (command: string, cwd = '/tmp') => classifyCommand(command, { cwd, platform: 'linux' })

/** Each line's output in real bash, one subshell per line so an arithmetic error ends only that one. */
function bashLines(commands: readonly string[], cwd = '/tmp'): string[] {
  const script = commands.map((command) => `( ${command} ) 2>/dev/null || echo '<failed>'`).join('\n')
  const run = spawnSync('bash', ['-c', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  })
  return run.stdout.split('\n').slice(0, commands.length)
}

function literalExpression(random: () => number, depth: number): string {
  if (depth === 0 || random() < 0.3)
    return pick(random, ['0', '1', '2', '7', '42', '100', '999999999999', '999999999999999999'])
  const left = literalExpression(random, depth - 1)
  const right = literalExpression(random, depth - 1)
  switch (pick(random, ['binary', 'binary', 'binary', 'unary', 'group', 'ternary'])) {
    case 'unary':
      return `${pick(random, ['-', '+', '!'])} ${left}`
    case 'group':
      return `(${left})`
    case 'ternary':
      return `${left} ? ${right} : ${literalExpression(random, depth - 1)}`
    default: {
      const operators = ['+', '-', '*', '/', '%', '<', '>', '<=', '>=', '==', '!=', '&&', '||']
      return `${left} ${pick(random, operators)} ${right}`
    }
  }
}

describe('literal arithmetic (issue 21.5)', () => {
  it('$(( … )) of literals is the number bash prints, and the line is read-only (seed 2105, 400 expressions)', () => {
    const random = seededRandom(2105)
    const commands = Array.from({ length: 400 }, () => `echo $(( ${literalExpression(random, 3)} ))`)
    const printed = bashLines(commands)
    let computed = 0
    commands.forEach((command, index) => {
      const real = printed[index]
      const argv = analyzeCommand(command).commands[0]?.argv ?? null
      if (real === '<failed>') {
        // A division by zero: bash does not run echo at all; the verdict leaves it to run time.
        expect(argv, command).toBeNull()
        return
      }
      computed += 1
      expect(argv, command).toEqual(['echo', real])
      expect(classify(command).readOnly, command).toBe(true)
    })
    expect(computed).toBeGreaterThan(300)
    // 19 digits may wrap in bash's own parse: not computed here, so left to run time.
    expect(analyzeCommand('echo $(( 4611686018427387904 ))').commands[0]?.argv).toBeNull()
  })

  it('a literal result inside a word is the word bash passes, quoted or not', () => {
    const commands = ['echo "a$((2*3))b"', "echo x$((7/2))'y'", 'echo $((-5))z', 'echo "$(( 1 ? 2 : 3 ))"']
    const printed = bashLines(commands)
    commands.forEach((command, index) => {
      expect(analyzeCommand(command).commands[0]?.argv, command).toEqual(['echo', printed[index]])
    })
    // The number is then judged as a word: `$((-1))` is the flag -1, `$((0))` an operand.
    expect(analyzeCommand('sort $((-1)) f').commands[0]?.argv).toEqual(['sort', '-1', 'f'])
  })

  it('names, commands and assignments inside arithmetic run for real and are refused', () => {
    for (const command of [
      'echo $(( a[$(touch m)] ))',
      '(( a[$(touch m)] ))',
      'x=1; (( x = a[$(touch m)] ))',
    ]) {
      expect(runForReal(`a=(1); ${command}`, 'm').markerMade, command).toBe(true)
      expect(classify(command).readOnly, command).toBe(false)
    }
    // A variable's value is evaluated as arithmetic again: its text runs.
    expect(runForReal("v='a[$(touch m)]'; echo $(( v ))", 'm').markerMade).toBe(true)
    for (const command of [
      'echo $(( v ))',
      '(( v ))',
      '(( v++ ))',
      'echo $(( 1 << 2 ))',
      'echo $(( 010 ))',
      '(( ))',
    ])
      expect(classify(command).readOnly, command).toBe(false)
  })

  it('loop counters over integer literals may be used and changed; a counter assigned otherwise is refused', () => {
    const loops = [
      'for i in 1 2 3; do (( i++ )); done',
      'for i in {1..3}; do echo $i; (( i > 1 )) && ls; done',
      'for i in 5 -2; do (( i = i * 2 )); done',
    ]
    for (const command of loops) expect(classify(command).readOnly, command).toBe(true)
    // `read` gives the counter a value that (( )) evaluates: touch runs for real.
    const rebinding = "for i in 1; do read i <<< 'a[$(touch m)]'; (( i )); done"
    expect(runForReal(`a=(1); ${rebinding}`, 'm').markerMade).toBe(true)
    const inner = 'for i in 1; do for i in *; do (( i )); done; done'
    expect(runForReal(`a=(1); ${inner}`, 'm', ['a[$(touch m)]']).markerMade).toBe(true)
    for (const command of [
      rebinding,
      inner,
      "for i in 1; do printf -v i %s 'a[$(touch m)]'; (( i )); done",
      'for i in 1; do i=$x; (( i )); done',
      'for i in 1 a; do (( i )); done',
      'for i in 1; do :; done; (( i ))',
    ])
      expect(classify(command).readOnly, command).toBe(false)
  })
})

describe('[[ … ]] with literal operands (issue 21.5)', () => {
  const tempDir = tempDirsRemovedAfterEach()
  const UNARY = ['-f', '-d', '-e', '-s', '-r', '-x', '-L', '-n', '-z']
  const OPERANDS = ['a', 'src', 'missing', '"with space"', "'*'", '$HOME', '"$PWD"', '.env']
  const BINARY = ['==', '!=', '=', '<', '>', '-nt', '-ot', '-ef']

  function testExpression(random: () => number, depth: number): string {
    if (depth === 0 || random() < 0.4) {
      if (random() < 0.5) return `${pick(random, UNARY)} ${pick(random, OPERANDS)}`
      if (random() < 0.2)
        return `${pick(random, ['1', '-3', '10'])} ${pick(random, ['-eq', '-lt', '-ge'])} ${pick(random, ['2', '0'])}`
      return `${pick(random, OPERANDS)} ${pick(random, BINARY)} ${pick(random, OPERANDS)}`
    }
    const left = testExpression(random, depth - 1)
    return pick(random, [
      `${left} && ${testExpression(random, depth - 1)}`,
      `${left} || ${testExpression(random, depth - 1)}`,
      `! ${left}`,
      `( ${left} )`,
    ])
  }

  it('real bash only looks: every generated test leaves the folder as it was and is read-only (seed 2151, 300)', () => {
    const cwd = tempDir()
    spawnSync('bash', ['-c', 'mkdir src; echo x > a; echo s > .env'], { cwd })
    const random = seededRandom(2151)
    const commands = Array.from(
      { length: 300 },
      () => `[[ ${testExpression(random, 3)} ]] && echo yes || echo no`,
    )
    const listing = () =>
      spawnSync('find', ['.', '-printf', '%p %s %m %T@\\n'], { cwd, encoding: 'utf8' }).stdout
    const before = listing()
    const answers = bashLines(commands, cwd)
    expect(listing()).toBe(before)
    expect(new Set(answers)).toEqual(new Set(['yes', 'no']))
    for (const command of commands) {
      const verdict = classifyCommand(command, { cwd, workspace: cwd, platform: 'linux' })
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
    }
  })

  it('operands bash evaluates or expands run commands for real and are refused', () => {
    for (const command of [
      '[[ -v a[$(touch m)] ]]',
      '[[ a[$(touch m)] -eq 1 ]]',
      '[[ $(touch m) == x ]]',
      '[[ x == `touch m` ]]',
    ]) {
      expect(runForReal(`a=(1); ${command}`, 'm').markerMade, command).toBe(true)
      expect(classify(command).readOnly, command).toBe(false)
    }
    expect(runForReal("v='a[$(touch m)]'; [[ $v -eq 1 ]]", 'm').markerMade).toBe(true)
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
    for (const command of ['[[ $v -eq 1 ]]', '[[ ${v:-x} == y ]]', '[[ -v $v ]]', '[[ x == $(< f) ]]'])
      expect(classify(command).readOnly, command).toBe(false)
  })

  it('comparing a credential variable asks; -v of one only tells whether it is set', () => {
    expect(
      classify('[[ $GITHUB_TOKEN == ghp_* ]]').asks?.[0]?.reason ??
        classify('[[ $GITHUB_TOKEN == ghp_* ]]').reason,
    ).toContain('GITHUB_TOKEN')
    expect(classify('[[ -v GITHUB_TOKEN ]]')).toMatchObject({ readOnly: true })
  })
})
