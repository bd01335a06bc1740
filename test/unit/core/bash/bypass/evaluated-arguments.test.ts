import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

// Each one runs `touch m` through an argument bash evaluates (checked for real below).
const EVALUATED = [
  "test -v 'a[$(touch m)]'",
  "[ -v 'a[$(touch m)]' ]",
  "[ ! -v 'a[$(touch m)]' ]",
  "test 1 -a -v 'a[$(touch m)]'",
  '[[ -v a[$(touch m)] ]]',
  '[[ a[$(touch m)] -eq 1 ]]',
  '(( a[$(touch m)] ))',
  "let 'a[$(touch m)]=1'",
  "printf -v 'a[$(touch m)]' %s 1",
  "read 'a[$(touch m)]' <<< v",
  "declare 'a[$(touch m)]=1'",
  "typeset 'a[$(touch m)]=1'",
  "unset 'a[$(touch m)]'",
  "unset -v 'a[$(touch m)]'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  'echo ${a[$(touch m)]}',
  'echo $(( a[$(touch m)] ))',
  "a['$(touch m)']=1",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  "echo ${#a['$(touch m)']}",
]

describe('class 2: arguments bash evaluates', () => {
  it.each(EVALUATED)('%s runs touch for real, and is not read-only', (command) => {
    expect(runForReal(`a=(1); ${command}`, 'm').markerMade).toBe(true)
    const verdict = classifyCommand(command, { cwd: '/', platform: 'linux' })
    expect(verdict.readOnly, verdict.reason).toBe(false)
  })

  it('test -v names why', () => {
    const verdict = classifyCommand("test -v 'a[$(touch m)]'", { cwd: '/', platform: 'linux' })
    expect(verdict.reason).toBe(
      'test -v evaluates an array subscript in its operand (a[$(…)]), which runs a command',
    )
  })

  // Builtins and keywords that evaluate a subscript or an arithmetic expression somewhere in their
  // arguments, with the evaluated word in every quoting and position we can think of.
  const BUILTINS = [
    'test -v',
    'test ! -v',
    'test x = x -o -v',
    '[ -v',
    '[ -R',
    'let',
    'printf -v',
    'read',
    'read -r',
    'read -a',
    'mapfile',
    'readarray',
    'declare',
    'declare -n',
    'declare -a',
    'typeset',
    'local',
    'export',
    'readonly',
    'unset',
    'unset -v',
    'unset -n',
    'eval',
    'shift',
    'wait -p',
  ]
  const SUBSCRIPTS = [
    "'a[$(touch m)]'",
    '"a[\\$(touch m)]"',
    'a\\[\\$\\(touch\\ m\\)\\]',
    "'a[`touch m`]'",
    "'a[b[$(touch m)]]'",
    "'a[$(touch m)]=1'",
    "'r=a[$(touch m)]'",
  ]
  const CLOSERS: Record<string, string> = { '[ -v': ' ]', '[ -R': ' ]' }

  it('every builtin × subscript variant is refused (seed 2, 300 commands)', () => {
    const random = seededRandom(2)
    for (let index = 0; index < 300; index += 1) {
      const builtin = pick(random, BUILTINS)
      const command = `${builtin} ${pick(random, SUBSCRIPTS)}${CLOSERS[builtin] ?? ''}`
      const verdict = classifyCommand(command, { cwd: '/', platform: 'linux' })
      expect(verdict.readOnly, command).toBe(false)
    }
  })

  it('test without an evaluating operator stays read-only', () => {
    for (const command of ['test -f package.json', '[ -d src ]', "[ 'a[$(x)]' = b ]", 'test -n x -a -z ""']) {
      expect(classifyCommand(command, { cwd: '/', platform: 'linux' }).readOnly, command).toBe(true)
    }
  })
})
