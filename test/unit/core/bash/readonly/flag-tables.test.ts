import { describe, expect, it } from 'vitest'
import { parseFlags } from '../../../../../src/main/core/bash/readonly/flag-parser'
import { type CommandPolicy, flagTable } from '../../../../../src/main/core/bash/readonly/flag-types'
import { itClassifies } from '../classify-table'

const demo: CommandPolicy = {
  flags: flagTable({
    none: '-a -b --all',
    number: '-n --count',
    string: '-s --name',
    optionalString: '--color',
    char: '-d',
    '{}': '-I',
    EOF: '-E',
  }),
  refusedFlags: { '-o': 'demo -o writes' },
  dashCount: true,
}

describe('parseFlags value kinds and spellings', () => {
  it.each([
    [
      ['-a', '-b', 'x'],
      [
        ['-a', null],
        ['-b', null],
      ],
      ['x'],
    ],
    [
      ['-ab'],
      [
        ['-a', null],
        ['-b', null],
      ],
      [],
    ],
    [['-n5'], [['-n', '5']], []],
    [['-n', '5'], [['-n', '5']], []],
    [['--count=5'], [['--count', '5']], []],
    [['--count', '-5'], [['--count', '-5']], []],
    [
      ['-an', '3'],
      [
        ['-a', null],
        ['-n', '3'],
      ],
      [],
    ],
    [['-s', '--all'], [['-s', '--all']], []],
    [['--name=a=b'], [['--name', 'a=b']], []],
    [['--color', 'x'], [['--color', null]], ['x']],
    [['--color=never'], [['--color', 'never']], []],
    [['-d', ','], [['-d', ',']], []],
    [['-I', '{}'], [['-I', '{}']], []],
    [['-E', 'EOF'], [['-E', 'EOF']], []],
    [['-20'], [['-n', '20']], []],
    [['-', 'x'], [], ['-', 'x']],
    [['--', '-o', '--evil'], [], ['-o', '--evil']],
  ])('%j', (args, flags, positionals) => {
    const result = parseFlags('demo', args, demo)
    expect(result).toEqual({
      ok: true,
      parsed: {
        flags: flags.map(([flag, value]) => ({ flag, value })),
        positionals,
        endOfOptions: args.indexOf('--') === -1 ? null : args.indexOf('--'),
        readFiles: [],
        runTimeFiles: false,
      },
    })
  })

  it.each([
    [['-x'], 'demo -x is not a flag known to be read-only'],
    [['-ax'], 'demo -x is not a flag known to be read-only'],
    [['--unknown'], 'demo --unknown is not a flag known to be read-only'],
    [['-o', 'f'], 'demo -o writes'],
    [['-aofile'], 'demo -o writes'],
    [['-n', 'five'], 'demo -n expects a number, got "five"'],
    [['--count=x'], 'demo --count expects a number, got "x"'],
    [['-n'], 'demo -n needs a value'],
    [['--all=yes'], 'demo --all takes no value'],
    [['-d', 'ab'], 'demo -d expects one character'],
    [['-I', 'X'], 'demo -I is read-only only with the literal {}'],
    [['-E', 'STOP'], 'demo -E is read-only only with the literal EOF'],
    [['x', '-x'], 'demo -x is not a flag known to be read-only'],
  ])('%j is refused: %s', (args, reason) => {
    expect(parseFlags('demo', args, demo)).toEqual({ ok: false, reason })
  })

  it('does not count -20 as a flag for commands without dash counts', () => {
    expect(parseFlags('demo', ['-20'], { ...demo, dashCount: false })).toEqual({
      ok: false,
      reason: 'demo -2 is not a flag known to be read-only',
    })
  })

  it('stops at the first positional when options end there (xargs style)', () => {
    const result = parseFlags('demo', ['-a', 'grep', '-x'], { ...demo, optionsEndAtFirstPositional: true })
    expect(result).toEqual({
      ok: true,
      parsed: {
        flags: [{ flag: '-a', value: null }],
        positionals: ['grep', '-x'],
        endOfOptions: null,
        readFiles: [],
        runTimeFiles: false,
      },
    })
  })
})

describe('per-flag tables through classify', () => {
  itClassifies([
    ['head -20 f', true, 'head with these flags only reads'],
    ['head -n5 f', true, 'head with these flags only reads'],
    ['tail -n +3 f', true, 'tail with these flags only reads'],
    ['grep -rn --include=*.ts -e foo src', true, 'grep with these flags only reads'],
    ['grep -5 foo f', true, 'grep with these flags only reads'],
    ['grep --colour=always foo', true, 'grep with these flags only reads'],
    ['rg -n --hidden -g "!dist" foo', true, 'rg with these flags only reads'],
    ['rg --pre ./evil foo', false, 'rg --pre runs a program on every file'],
    ['rg -z foo', false, 'rg -z runs decompression programs'],
    ['sort -u -k2,2 -t, f', true, 'sort with these flags only reads'],
    ['sort -uo out f', false, 'sort -o writes its output to a file'],
    ['sort -oFILE f', false, 'sort -o writes its output to a file'],
    ['sort --output=x f', false, 'sort --output writes its output to a file'],
    ['sort --compress-program=sh f', false, 'sort --compress-program runs a program'],
    ['sort --bogus f', false, 'sort --bogus is not a flag known to be read-only'],
    ['uniq -c f', true, 'uniq with these flags only reads'],
    ['uniq a b', false, 'uniq INPUT OUTPUT writes to OUTPUT'],
    ['shuf -n 3 f', true, 'shuf with these flags only reads'],
    ['shuf -o out f', false, 'shuf -o writes its output to a file'],
    ['cat -A f', true, 'cat with these flags only reads'],
    ['cat --bogus f', false, 'cat --bogus is not a flag known to be read-only'],
    ['wc -lc f', true, 'wc with these flags only reads'],
    ['cut -d: -f1 /etc/passwd', true, 'cut with these flags only reads'],
    ['xxd -l 64 f', true, 'xxd with these flags only reads'],
    ['xxd -r dump bin', false, 'xxd INFILE OUTFILE writes to OUTFILE'],
    ['file -b f', true, 'file with these flags only reads'],
    ['file -C -m magic', false, 'file -C writes a compiled magic file'],
    ['fd -e ts src', true, 'fd with these flags only reads'],
    ['fd -x rm', false, 'fd -x runs a program for each result'],
    ['fdfind --exec-batch rm', false, 'fd --exec-batch runs a program'],
    ['cd src', true, 'cd with these flags only reads'],
    ['cd a b', false, 'cd takes at most 1 operand(s) when read-only'],
    ['find . -maxdepth 2 -name "*.md" -o -name "*.txt"', true, 'find with these flags only reads'],
    ['find . -newer x -ls', true, 'find with these flags only reads'],
    ['find . -frobnicate', false, 'find -frobnicate is not a flag known to be read-only'],
  ])
})

// Class 4: an unquoted glob anywhere in a word is unknown, unless it follows the `--` of a tool
// that reads everything after it as file names, or it can never become a flag of a tool that reads
// files (`./*`), or no flag of the tool reads or writes a file (cat, ls): issue 21.5,
// test/unit/core/bash/bypass/globs.test.ts.
describe('unquoted globs anywhere in a word', () => {
  const GLOB = 'an unquoted glob expands to whatever files exist'
  itClassifies([
    ['sort *', false, `sort *: ${GLOB}`],
    ['sed -n p *', false, `sed *: ${GLOB}`],
    ['find * -name x', false, `find *: ${GLOB}`],
    ['git diff *', false, `git *: ${GLOB}`],
    ['uniq a*', false, `uniq a*: ${GLOB}`],
    ['sort ./*', true, 'sort with these flags only reads'],
    ['cat *', true, 'cat with these flags only reads'],
    ['grep foo *', false, `grep *: ${GLOB}`],
    ['ls *.ts', true, 'ls with these flags only reads'],
    ['sort "*"', true, 'sort with these flags only reads'],
    ['cat -- *', true, 'cat with these flags only reads'],
    ['grep foo -- *.ts', true, 'grep with these flags only reads'],
    ['ls -la -- *.ts', true, 'ls with these flags only reads'],
    ['git diff -- *', true, 'git diff only reads'],
  ])
})
