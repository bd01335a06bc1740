import { describe, expect, it } from 'vitest'
import { analyzeCommand, MAX_COMMAND_CHARS } from '../../../../../src/main/core/bash/analysis/analyze-command'

describe('analyzeCommand', () => {
  it('splits a line into simple commands with argv, source text and connectors', () => {
    const analysis = analyzeCommand('cd src && ls -la | wc -l; echo done || true |& cat')
    expect(analysis.parsed).toBe(true)
    expect(analysis.permissionSafe).toBe(true)
    expect(analysis.commands.map((c) => [c.text, c.argv, c.connector])).toEqual([
      ['cd src', ['cd', 'src'], null],
      ['ls -la', ['ls', '-la'], '&&'],
      ['wc -l', ['wc', '-l'], '|'],
      ['echo done', ['echo', 'done'], ';'],
      ['true', ['true'], '||'],
      ['cat', ['cat'], '|&'],
    ])
  })

  it('judges the words bash will run, after quote removal and backslashes', () => {
    const analysis = analyzeCommand(`find . -de\\lete; r''m x; "l"s $'\\x2di' a\\ b --x="a b"`)
    expect(analysis.commands.map((c) => c.argv)).toEqual([
      ['find', '.', '-delete'],
      ['rm', 'x'],
      ['ls', '-i', 'a b', '--x=a b'],
    ])
    expect(analysis.permissionSafe).toBe(true)
  })

  it('keeps env-assignment prefixes, with dynamic values as null', () => {
    const [command] = analyzeCommand('LANG=C TZ="UTC" X=$HOME ls').commands
    expect(command?.envAssignments).toEqual([
      { name: 'LANG', value: 'C' },
      { name: 'TZ', value: 'UTC' },
      { name: 'X', value: null },
    ])
    expect(command?.dynamicParts).toEqual(['$HOME'])
  })

  it('keeps redirects with descriptors, static targets and here-doc bodies', () => {
    const [command] = analyzeCommand('cat <in 2>/dev/null >&2 {fd}>out <<<"word" <<EOF\nbody\nEOF').commands
    expect(command?.redirects).toEqual([
      { operator: '<', target: 'in', level: 'command' },
      { operator: '2>', target: '/dev/null', level: 'command' },
      { operator: '>&', target: '2', level: 'command' },
      { operator: '{fd}>', target: 'out', level: 'command' },
      { operator: '<<<', target: 'word', level: 'command' },
      { operator: '<<', target: 'EOF', heredoc: 'body\n', level: 'command' },
    ])
  })

  it.each([
    ['ls $(rm -rf x)', '$(rm -rf x)'],
    ['ls `rm x`', '`rm x`'],
    ['cat <(rm x)', '<(rm x)'],
    ['ls "$HOME"', '$HOME'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
    ['ls ${x:-y}', '${x:-y}'],
    ['ls $((x+2))', '$((x+2))'],
    ['ls {1..1000}', '{1..1000} (brace expansion: {1..1000} makes more than 256 words)'],
    ['ls {a..Z}', '{a..Z} (brace expansion: {a..Z} is read differently by bash and zsh)'],
    ['ls @(a|b)', '@(a|b)'],
    ['echo $"hello"', '$"hello"'],
    ['ls >$out', '$out'],
    ['cat <<EOF\n$(rm x)\nEOF', '$(rm x)'],
    ['a[$(rm x)]=1 ls', '$(rm x)'],
    ['export A=$(rm x)', '$(rm x)'],
  ])('%s is dynamic (%s), so not permission-safe', (command, part) => {
    const analysis = analyzeCommand(command)
    expect(analysis.parsed).toBe(true)
    expect(analysis.permissionSafe).toBe(false)
    expect(analysis.commands.flatMap((c) => c.dynamicParts)).toContain(part)
  })

  it('expands braces as bash does, and a line with them is not permission-safe', () => {
    const analysis = analyzeCommand("cat {a,b}.txt x{1..3} {'a b',c{d,e}} \\{n,o}")
    expect(analysis.commands[0]?.argv).toEqual([
      'cat',
      'a.txt',
      'b.txt',
      'x1',
      'x2',
      'x3',
      'a b',
      'cd',
      'ce',
      '{n,o}',
    ])
    expect(analysis.commands[0]?.braceExpanded).toBe(true)
    expect(analysis.permissionSafe).toBe(false)
  })

  it('treats quoted here-doc bodies and static double quotes as static', () => {
    expect(analyzeCommand('cat <<"EOF"\n$(rm x)\nEOF').permissionSafe).toBe(true)
    expect(analyzeCommand('echo "plain text"').permissionSafe).toBe(true)
  })

  it('records unquoted globs, leading ones separately', () => {
    const [command] = analyzeCommand('ls * src/*.ts "*" [ab]x').commands
    expect(command?.argv).toEqual(['ls', '*', 'src/*.ts', '*', '[ab]x'])
    expect(command?.leadingGlobArgs).toEqual([1, 4])
    expect(command?.globArgs).toEqual([1, 2, 4])
  })

  it.each([
    ['(ls)', 'subshell ( … )'],
    ['{ ls; }', 'group { … }'],
    ['if true; then ls; fi > out', 'redirected compound command'],
    ['for PATH in a; do ls; done', 'for loop variable PATH'],
    ['while true; do ls; done', 'while/until'],
    ['case x in a) ls;; esac', 'case'],
    ['f() { ls; }', 'function definition'],
    ['ls &', 'background &'],
    ['coproc ls', 'coproc'],
    ['[[ $(x) == y ]]', '[[ … ]] ($(x) inside [[ ]] is expanded in a way this check does not follow)'],
    ['(( x++ ))', '(( … )) (++ assigns a variable that is not a loop counter)'],
    ['{ ls; } > out', 'redirected compound command'],
  ])('%s is unsupported (%s)', (command, kind) => {
    const analysis = analyzeCommand(command)
    expect(analysis.parsed).toBe(true)
    expect(analysis.unsupported).toContain(kind)
    expect(analysis.permissionSafe).toBe(false)
  })

  it.each([
    ['echo "unbalanced', 'unterminated double quote'],
    ["echo 'unbalanced", 'unterminated'],
    ['ls | echo ( | wc', 'the parser skipped'],
    ['echo (', 'the parser skipped'],
    ['ls ;;', "unexpected token ';;'"],
    ['a\0b', 'NUL byte'],
    ['x'.repeat(MAX_COMMAND_CHARS + 1), `over the ${MAX_COMMAND_CHARS}-character limit`],
  ])('%j does not parse: %s', (command, reason) => {
    const analysis = analyzeCommand(command)
    expect(analysis.parsed).toBe(false)
    expect(analysis.permissionSafe).toBe(false)
    expect(analysis.parseError).toContain(reason)
    expect(analysis.commands).toEqual([])
  })

  it('answers a value that is not a string with a parse failure instead of throwing', () => {
    expect(analyzeCommand(undefined as unknown as string)).toMatchObject({
      parsed: false,
      parseError: 'the command is not a string',
    })
  })

  it('accepts a line of exactly the maximum length, comments and continuations', () => {
    expect(analyzeCommand(`echo ${'x'.repeat(MAX_COMMAND_CHARS - 5)}`).parsed).toBe(true)
    const analysis = analyzeCommand('ls \\\n  -la # list\n# only a comment')
    expect(analysis.parsed).toBe(true)
    expect(analysis.commands.map((c) => c.argv)).toEqual([['ls', '-la']])
  })
})
