import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

describe('class 3: where each tool stops reading options, and which operand it writes', () => {
  const tempDir = tempDirsRemovedAfterEach()
  const classify = (command: string, platform: NodeJS.Platform = 'linux') =>
    classifyCommand(command, { cwd: tempDir(), platform })

  it('xxd stops at the first operand, so `xxd f -a` writes the file -a', () => {
    expect(runForReal('xxd f -a', '-a').markerMade).toBe(true)
    expect(classify('xxd f -a')).toMatchObject({
      readOnly: false,
      reason: 'xxd INFILE OUTFILE writes to OUTFILE',
    })
    expect(classify('xxd -a f').readOnly).toBe(true)
  })

  it('POSIXLY_CORRECT makes uniq read `-c` after the input as its OUTPUT file', () => {
    expect(runForReal('POSIXLY_CORRECT=1 uniq f -c', '-c').markerMade).toBe(true)
    // The inherited environment may set it too, so the plain spelling is refused as well.
    expect(runForReal('export POSIXLY_CORRECT=1; uniq f -c', '-c').markerMade).toBe(true)
    for (const command of ['POSIXLY_CORRECT=1 uniq f -c', 'uniq f -c']) {
      const verdict = classify(command)
      expect(verdict.readOnly, command).toBe(false)
      expect(verdict.reason).toContain(
        'uniq INPUT OUTPUT writes to OUTPUT when options end at the first operand',
      )
    }
    expect(classify('uniq -c f').readOnly).toBe(true)
  })

  it('macOS base64 -o writes, judged through the platform parameter', () => {
    expect(classify('base64 -o out', 'darwin')).toMatchObject({
      readOnly: false,
      reason: 'base64 -o writes its output to a file (macOS)',
    })
    expect(classify('base64 in out', 'darwin').readOnly).toBe(false)
    expect(classify('base64 -D -i in', 'darwin').readOnly).toBe(true)
    expect(classify('base64 -w0 f', 'linux').readOnly).toBe(true)
  })

  // Real runs in both getopt modes: whenever a generated command creates a file on this machine,
  // with or without POSIXLY_CORRECT, the classifier must have refused it.
  const TOOLS = [
    'uniq',
    'uniq',
    'uniq',
    'xxd',
    'xxd',
    'xxd',
    'sort',
    'head',
    'tail',
    'cut -c1',
    'wc',
    'cat',
    'shuf',
    'base64',
  ]
  const WORDS = [
    'f',
    'g',
    'g',
    'g',
    'out',
    '-c',
    '-n',
    '1',
    '-a',
    '-',
    '--',
    '-u',
    '-o',
    'out',
    '-p',
    '-d',
    '-s',
    '0',
  ]

  it('every real write, in either getopt mode, was refused (seed 3, 160 commands)', () => {
    const random = seededRandom(3)
    const commands = Array.from({ length: 160 }, () => {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, WORDS))
      return `${pick(random, TOOLS)} ${words.join(' ')}`
    })
    const cwd = tempDir()
    const wrote = new Set<number>()
    // One bash per getopt mode runs every command in its own folder holding f and g.
    const script = commands
      .map(
        (command, index) =>
          `mkdir -p d${index} && cd d${index} && printf 'x\\nx\\ny\\n' | tee f > g && { ${command}; } </dev/null >/dev/null 2>&1; cd ..`,
      )
      .join('\n')
    for (const posix of [false, true]) {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: cwd, LC_ALL: 'C' }
      if (posix) env.POSIXLY_CORRECT = '1'
      const run = spawnSync('bash', ['-c', script], { cwd, env, timeout: 60_000, encoding: 'utf8' })
      expect(run.error).toBeUndefined()
      // Record what this mode left behind before the next mode rewrites f and g.
      commands.forEach((_, index) => {
        const dir = join(cwd, `d${index}`)
        const changed = readdirSync(dir).length !== 2 || readFileSync(join(dir, 'g'), 'utf8') !== 'x\nx\ny\n'
        if (changed) wrote.add(index)
        rmSync(dir, { recursive: true, force: true })
      })
    }
    for (const index of wrote) {
      const command = commands[index] as string
      expect(classifyCommand(command, { cwd, platform: 'linux' }).readOnly, command).toBe(false)
    }
    expect(wrote.size).toBeGreaterThan(5)
  }, 120_000)
})
