import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../../src/main/core/bash/classify'

/**
 * Flags whose effect is not a file they write (issue 21, fourth review): xargs sets a variable in
 * the command it runs, and tar takes a file's times from a value that looks like a date. Each is
 * shown on the real tool first.
 */
const dir = mkdtempSync(join(tmpdir(), 'sg-flag-effects-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const sh = (command: string) => execFileSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' })

describe('xargs --process-slot-var', () => {
  it('really sets the named variable in the command it runs', () => {
    // The input line is the name printenv prints: the variable xargs set for it.
    expect(sh('echo SG_SLOT | xargs --process-slot-var=SG_SLOT printenv').trim()).toBe('0')
    expect(sh('echo SG_SLOT | xargs --proc SG_SLOT printenv').trim()).toBe('0')
  })

  // Every spelling getopt_long accepts: each unambiguous prefix, with = or a separate word.
  const spellings = ['--process-slot-var', '--process-slot', '--process', '--proc'].flatMap((flag) => [
    `${flag}=LD_PRELOAD`,
    `${flag} LD_LIBRARY_PATH`,
  ])
  it.each(spellings)('xargs %s is refused, since the variable may be LD_PRELOAD or PATH', (flag) => {
    const verdict = classifyCommand(`printf 'a\\n' | xargs ${flag} echo`, { cwd: dir, workspace: dir })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain('--process-slot-var sets a variable')
  })
})

describe('tar -N and its kin take a file when the value starts with / or .', () => {
  it('really lists by the file’s mtime', () => {
    writeFileSync(join(dir, 'f'), 'x')
    sh('tar -cf a.tar f')
    writeFileSync(join(dir, 'stamp'), '')
    utimesSync(join(dir, 'stamp'), new Date('2000-01-01'), new Date('2000-01-01'))
    expect(sh('tar -t -N ./stamp -f a.tar 2>/dev/null')).toContain('f')
    utimesSync(join(dir, 'stamp'), new Date('2100-01-01'), new Date('2100-01-01'))
    expect(sh('tar -t -N ./stamp -f a.tar 2>/dev/null')).not.toContain('f')
  })

  it.each(['-N', '--newer=', '--newer-mtime=', '--after-date=', '--after='])(
    'tar -t %s~/.ssh/id_rsa asks first',
    (flag) => {
      const value = flag.endsWith('=')
        ? `${flag}/home/someone/.ssh/id_rsa`
        : `${flag} /home/someone/.ssh/id_rsa`
      const verdict = classifyCommand(`tar -t ${value} -f a.tar`, { cwd: dir, workspace: dir })
      expect(verdict.readOnly, verdict.reason).toBe(true)
      expect(verdict.asks?.length ?? 0, verdict.reason).toBeGreaterThan(0)
    },
  )

  it('a date stays a date', () => {
    const verdict = classifyCommand('tar -t --newer=2024-01-01 -f a.tar', { cwd: dir, workspace: dir })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
  })
})

describe('a tar -T list is read for option lines too (fifth review)', () => {
  // The list a repository ships names further lists; tar quotes each line it cannot find.
  const secret = join(dir, 'outside-secret')
  writeFileSync(secret, 'SECRET-LINE-93c2\n')
  writeFileSync(join(dir, 'MANIFEST'), `--files-from=${secret}\n`)
  writeFileSync(join(dir, 'g'), 'x')
  sh('tar -cf b.tar g')

  it.each([
    'tar -tf b.tar -T MANIFEST',
    'tar -tf b.tar --files-from=MANIFEST',
    'tar -tf b.tar --files-f MANIFEST',
    'tar tfT b.tar MANIFEST',
  ])('%s prints the secret list for real, and asks first', (command) => {
    expect(sh(`${command} 2>&1 || true`)).toContain('SECRET-LINE-93c2')
    const verdict = classifyCommand(command, { cwd: dir, workspace: dir })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks?.length ?? 0, verdict.reason).toBeGreaterThan(0)
  })

  it('a plain listing still runs at once', () => {
    const verdict = classifyCommand('tar -tvf b.tar', { cwd: dir, workspace: dir })
    expect(verdict.readOnly && (verdict.asks ?? []).length === 0, verdict.reason).toBe(true)
  })
})

describe('ps reads a line again as BSD options when a value fails (fifth review)', () => {
  it('ps -uxe, -gxe and -sxe print another process’s environment for real, and are refused', async () => {
    const { spawn } = await import('node:child_process')
    const holder = spawn('sleep', ['60'], {
      env: { PATH: process.env.PATH, SG_PS_MARK: 'PS-ENV-SECRET-5d1' },
      stdio: 'ignore',
    })
    try {
      await new Promise((ready) => holder.once('spawn', ready))
      for (const command of ['ps -uxe', 'ps -gxe', 'ps -sxe', 'ps -auxe']) {
        expect(sh(`${command} 2>/dev/null || true`), command).toContain('PS-ENV-SECRET-5d1')
        const verdict = classifyCommand(command, { cwd: dir, workspace: dir })
        expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(false)
      }
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('every value-checked option with such a value is refused; ordinary listings still run', () => {
    for (const flag of ['-u', '-U', '-g', '-G', '-s', '-t', '-p', '-q']) {
      for (const form of [`${flag}xe`, `${flag} xe`, `${flag}ex`]) {
        expect(classifyCommand(`ps ${form}`, { cwd: dir, workspace: dir }).readOnly, form).toBe(false)
      }
    }
    for (const command of ['ps -ef', 'ps -u root', 'ps -o pid,etime,user -p 1', 'ps -C node', 'ps aux']) {
      expect(classifyCommand(command, { cwd: dir, workspace: dir }).readOnly, command).toBe(true)
    }
  })
})
