import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../src/main/cli/main'
import { runCliCaptured } from './run-cli'

async function classifyStdin(input: string, extra: string[] = []) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(['classify', '--stdin', ...extra], {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    stdin: Readable.from([input]),
    env: { PATH: process.env.PATH ?? '' },
    cwd: process.cwd(),
    signal: new AbortController().signal,
  })
  return {
    code,
    stdout,
    stderr,
    lines: stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  }
}

describe('shellgate classify --stdin, signalled', () => {
  it('stops classifying at the signal, even with thousands of lines already buffered', async () => {
    const controller = new AbortController()
    let verdicts = 0
    let stderr = ''
    const line = `${JSON.stringify('git status --short && ls -la')}\n`
    const code = await runCli(['classify', '--stdin'], {
      stdout: () => {
        verdicts += 1
        // The person presses Ctrl+C once the first answer is out.
        if (verdicts === 1) controller.abort(new Error('received SIGINT'))
      },
      stderr: (text) => {
        stderr += text
      },
      stdin: Readable.from([line.repeat(20_000)]),
      env: { PATH: process.env.PATH ?? '' },
      cwd: process.cwd(),
      signal: controller.signal,
    })
    expect(code).toBe(130)
    expect(verdicts).toBeLessThan(20_000)
    expect(stderr).toBe('shellgate classify: interrupted; the remaining lines were not classified\n')
  })
})

describe('shellgate classify', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellgate-classify-'))
    await writeFile(join(dir, 'file.txt'), 'x')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('--json prints the verdict with parts and suggested rules', async () => {
    const { code, stdout, stderr } = await runCliCaptured([
      'classify',
      '--json',
      '--cwd',
      dir,
      'ls -la && rm -rf dist',
    ])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const verdict = JSON.parse(stdout)
    expect(Object.keys(verdict)).toEqual([
      'command',
      'readOnly',
      'permissionSafe',
      'reason',
      'parts',
      'asks',
      'suggestedRules',
      'decision',
    ])
    expect(verdict).toMatchObject({ command: 'ls -la && rm -rf dist', readOnly: false, permissionSafe: true })
    expect(verdict.parts.map((p: { text: string; readOnly: boolean }) => [p.text, p.readOnly])).toEqual([
      ['ls -la', true],
      ['rm -rf dist', false],
    ])
    expect(verdict.reason).toBe(verdict.parts[1].reason)
    expect(verdict.suggestedRules).toEqual(['ls -la && rm -rf dist'])
  })

  it.each([
    ['pnpm --dir app run lint', ['pnpm run lint:*']],
    ['git -C sub commit -m "x"', ['git commit:*']],
    ['python3 -m pytest tests', ['python3 -m pytest:*']],
    ['rm -rf dist', ['rm -rf dist']],
    ['cd app && npm test', ['npm test:*']],
    ['npm test > out.txt', ['npm test > out.txt']],
    ['find . -name "*.tmp" -exec rm {} +', ['find . -name "*.tmp" -exec rm {} +']],
    ['cat file.txt', []],
  ])('with the real classifier: %s suggests %j', async (command, rules) => {
    const { stdout } = await runCliCaptured(['classify', '--json', '--cwd', dir, command])
    expect(JSON.parse(stdout).suggestedRules).toEqual(rules)
  })

  it('prints a human verdict without --json', async () => {
    const { code, stdout } = await runCliCaptured(['classify', '--cwd', dir, 'cat file.txt'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^read-only: /)
    expect(stdout).toContain('rules: prefix, wildcard and exact rules can match it')
  })

  it('takes the words after -- as the command', async () => {
    const { stdout } = await runCliCaptured([
      'classify',
      '--json',
      '--cwd',
      dir,
      '--',
      'git',
      'push',
      'origin',
    ])
    expect(JSON.parse(stdout)).toMatchObject({
      command: 'git push origin',
      readOnly: false,
      suggestedRules: ['git push:*'],
    })
  })

  it.each([
    ['binary junk', '\u0000\u00ff\u0001garbage\u0000'],
    ['a NUL byte', 'cat a\u0000b'],
    ['unbalanced quotes', 'echo "unterminated'],
    ['10 MB of text', 'x'.repeat(10 * 1024 * 1024)],
  ])('%s is a not-read-only verdict with a reason, never an exception', async (_name, command) => {
    const { code, stdout, stderr } = await runCliCaptured(['classify', '--json', command])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    const verdict = JSON.parse(stdout)
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).not.toBe('')
  })

  it('--stdin answers each JSON line in order; a malformed line gets an error object and processing continues', async () => {
    const input = [
      '"cat file.txt"',
      '{"cmd":"npm test"}',
      'not json',
      '{"cmd":3}',
      '[1]',
      '',
      '"git status"',
    ].join('\n')
    const { code, lines } = await classifyStdin(input, ['--cwd', dir])
    expect(code).toBe(0)
    expect(lines).toHaveLength(6)
    expect(lines[0]).toMatchObject({ command: 'cat file.txt', readOnly: true })
    expect(lines[1]).toMatchObject({ command: 'npm test', readOnly: false, suggestedRules: ['npm test:*'] })
    expect(lines[2]).toMatchObject({ error: { code: 'invalid_input', line: 3 } })
    expect(lines[2].error.message).toMatch(/^not JSON/)
    expect(lines[3]).toEqual({
      error: { code: 'invalid_input', message: '"cmd" must be a string, got number', line: 4 },
    })
    expect(lines[4].error.message).toBe('expected a JSON string or an object with a "cmd" string')
    expect(lines[5]).toMatchObject({ command: 'git status' })
  })

  it('--stdin judges each line as --json does: in --cwd as the workspace, with what it asks and the decision', async () => {
    const input = ['"cat ../elsewhere.txt"', '"cat file.txt"'].join('\n')
    const { lines } = await classifyStdin(input, ['--cwd', dir])
    expect(lines[0]).toMatchObject({ readOnly: true, decision: { outcome: 'ask' } })
    expect(lines[0].asks).toEqual([expect.objectContaining({ kind: 'outside-workspace' })])
    expect(lines[1]).toMatchObject({ readOnly: true, asks: [], decision: { outcome: 'allow' } })
    const single = await runCliCaptured(['classify', '--json', '--cwd', dir, 'cat ../elsewhere.txt'])
    const { decision: _single, ...withoutDecision } = JSON.parse(single.stdout)
    const { decision: _line, ...lineWithoutDecision } = lines[0]
    expect(lineWithoutDecision).toEqual(withoutDecision)
  })

  it('--stdin handles CRLF and a last line without a newline', async () => {
    const { lines } = await classifyStdin('"ls"\r\n"pwd"')
    expect(lines.map((line) => line.command)).toEqual(['ls', 'pwd'])
  })

  it.each([
    [['classify'], 'missing <command>'],
    [['classify', 'git', 'status'], 'quote the command as one argument'],
    [['classify', 'ls', '--', 'ls'], 'either as one argument or after --'],
    [['classify', '--cwd', '/definitely/not/here', 'ls'], 'does not exist'],
    [['classify', '--stdin', 'ls'], 'do not also give one'],
    [['classify', '--stdin'], '--stdin needs JSON Lines on stdin'],
    [['classify', '--bogus', 'ls'], '--bogus'],
  ])('%j → exit 2, one line: %s', async (argv, message) => {
    const { code, stdout, stderr } = await runCliCaptured(argv)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain(message)
  })

  it('a command over the size limit is echoed cut short, with how much was left out', async () => {
    const command = `echo ${'x'.repeat(10 * 1024 * 1024)}`
    const { stdout } = await runCliCaptured(['classify', '--json', command])
    const verdict = JSON.parse(stdout)
    expect(stdout.length).toBeLessThan(64 * 1024)
    expect(verdict.command).toBe(`${command.slice(0, 4096)}… (${command.length - 4096} more characters)`)
    for (const part of verdict.parts) expect(part.text.length).toBeLessThanOrEqual(4096 + 40)
  })

  it('a long part is cut in parts[].text too', async () => {
    const long = `cat ${'y'.repeat(8_000)}`
    const { stdout } = await runCliCaptured(['classify', '--json', `ls && ${long}`])
    const verdict = JSON.parse(stdout)
    expect(verdict.parts[1].text).toBe(`${long.slice(0, 4096)}… (${long.length - 4096} more characters)`)
  })

  it.each(['echo "unbalanced', "cat 'x", 'ls $(', 'if then'])(
    '%s does not parse: no suggested rules',
    async (command) => {
      const { stdout } = await runCliCaptured(['classify', '--json', command])
      expect(JSON.parse(stdout)).toMatchObject({ readOnly: false, suggestedRules: [] })
    },
  )

  it('--stdin into a reader that closes early (| head -1) exits quietly, without an EPIPE trace', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'classify', '--stdin'], {
      cwd: process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
    })
    child.stdin.on('error', () => {
      // The child stops reading once its stdout is gone; our writes may then fail, as head's would.
    })
    const lines = Array.from({ length: 50_000 }, () => '"ls -la"').join('\n')
    child.stdin.end(`${lines}\n`)
    const first = await new Promise<string>((resolve) => {
      let out = ''
      child.stdout.on('data', (chunk) => {
        out += String(chunk)
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
      })
    })
    child.stdout.destroy()
    const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)))
    expect(JSON.parse(first)).toMatchObject({ command: 'ls -la', readOnly: true })
    expect(stderr).toBe('')
    expect(code).toBe(0)
  }, 60_000)
})
