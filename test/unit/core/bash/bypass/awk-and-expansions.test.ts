import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { findAwkProgramProblem } from '../../../../../src/main/core/bash/readonly/callbacks/awk-program'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

const classify = (command: string, workspace?: string) =>
  classifyCommand(command, { cwd: '/tmp', platform: 'linux', workspace })

describe('class 7: awk programs that only read', () => {
  it.each([
    ['awk \'BEGIN{system("touch m")}\'', 'awk system() runs a shell command'],
    ['awk \'{print > "m"}\' f', 'awk print with > or | writes to a file or a command'],
    ['awk \'{print | "cat > m"}\' f', 'awk print with > or | writes to a file or a command'],
    ['awk \'BEGIN{"touch m" | getline x}\'', 'awk | pipes to or from a command'],
    ['awk \'{print /"/; system("touch m")}\' f', 'awk / after a value is division or a regex'],
  ])('%s writes for real and is refused', (command, reason) => {
    expect(runForReal(command, 'm').markerMade).toBe(true)
    expect(classify(command)).toMatchObject({ readOnly: false, reason: expect.stringContaining(reason) })
  })

  it('the everyday forms stay read-only', () => {
    for (const command of [
      "awk '{print $1}' f",
      "awk -F: '$3 > 100 {print $1}' f",
      "awk '/a|b/ {n++} END {print n}' f",
      "awk 'NR==1' f",
      'awk \'{printf "%s\\n", $2}\' f',
      'awk -v x=1 \'{print $1 "|" x}\' f',
    ]) {
      expect(classify(command).readOnly, command).toBe(true)
    }
    expect(classify('awk -f prog.awk f').readOnly).toBe(false)
    expect(classify('awk \'BEGIN{print ENVIRON["TOKEN"]}\'').reason).toContain('ENVIRON')
  })

  // Dangerous pieces hidden behind strings, regexes and statement boundaries: all refused.
  const HIDERS = [
    '',
    '"x";',
    '/re/;',
    'x="a;b";',
    's="\\"";',
    '/[/]/ {',
    'print /"/;',
    '$1 ~ /"/ {',
    'a=1/2;',
  ]
  const DANGERS = [
    'system("touch m")',
    'print > "m"',
    'print | "sh"',
    '"id" | getline',
    'getline x < "/etc/passwd"',
    'print ENVIRON["H"]',
    '@include "x"',
    'printf "%s" , $1 > "m"',
    'print $1 |& "sh"',
  ]
  it('every generated program holding a danger is refused (seed 7, 300 programs)', () => {
    const random = seededRandom(7)
    for (let index = 0; index < 300; index += 1) {
      const program = `BEGIN { ${pick(random, HIDERS)} ${pick(random, DANGERS)} ${pick(random, ['', '}', ';'])}`
      expect(findAwkProgramProblem(program), program).not.toBeNull()
    }
  })
})

describe('class 7: echo $VAR and $(…) whose command is read-only', () => {
  it('plain parameters and read-only substitutions are read-only; the rest is not', () => {
    for (const command of [
      'echo $HOME',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expansions, not templates
      'echo "$HOME/x" ${USER}',
      'echo $(date)',
      'echo "$(git --version)"',
      'echo $(echo $(pwd))',
    ]) {
      expect(classify(command).readOnly, command).toBe(true)
    }
    for (const command of [
      'echo $(touch m)',
      'echo $HOME$(touch m)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expansions, not templates
      'echo "${a[$(touch m)]}"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expansions, not templates
      'echo ${!ref}',
      'echo `date`',
      'sort $X',
      'test -v $X',
      'echo $X > out',
      'X=$(touch m) echo hi',
      'echo $(echo $(echo $(echo $(pwd))))',
    ]) {
      expect(classify(command).readOnly, command).toBe(false)
    }
  })

  it('a substitution that writes really runs, and is refused', () => {
    expect(runForReal('echo $HOME$(touch m)', 'm').markerMade).toBe(true)
    expect(classify('echo $HOME$(touch m)').reason).toContain('touch creates files')
  })

  it('a command reading run-time paths asks when a workspace is known; echo never does', () => {
    const files = classify('wc -l $(git ls-files)', '/tmp')
    expect(files.readOnly).toBe(true)
    expect(files.asks?.[0]?.reason).toBe('wc reads paths only known at run time, maybe outside the workspace')
    expect(classify('echo $HOME', '/tmp').asks).toBeUndefined()
  })
})
