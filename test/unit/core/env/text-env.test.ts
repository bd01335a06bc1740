import { execFileSync, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { applyExecutionTextEnv, utf8LocaleFor } from '../../../../src/main/core/env/text-env'

/** glibc spells C.UTF-8 as "C.utf8" in `locale -a`: compare the normalised codeset. */
const normalise = (locale: string) => locale.toLowerCase().replace(/utf-?8/, 'utf8')

describe('applyExecutionTextEnv', () => {
  it('replaces a missing, C or POSIX LANG/LC_CTYPE with a UTF-8 locale that `locale -a` lists', () => {
    const available = execFileSync('locale', ['-a']).toString().split('\n').map(normalise)
    const starts: Record<string, string>[] = [
      {},
      { LANG: 'C' },
      { LANG: 'POSIX', LC_CTYPE: 'C' },
      { LANG: '' },
    ]
    for (const start of starts) {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...start }
      applyExecutionTextEnv(env, 'linux')
      expect(available).toContain(normalise(env.LANG ?? ''))
      const run = spawnSync('locale', [], { env })
      // glibc complains on stderr when a locale in the env does not exist.
      expect(run.stderr.toString()).toBe('')
      expect(run.stdout.toString()).toMatch(/LC_CTYPE="?C\.UTF-8"?/)
    }
  })

  it('keeps a UTF-8 locale the user chose', () => {
    const env = { LANG: 'de_DE.UTF-8', LC_CTYPE: 'ja_JP.UTF-8', LC_ALL: 'fr_FR.UTF-8' }
    applyExecutionTextEnv(env, 'linux')
    expect(env).toMatchObject({ LANG: 'de_DE.UTF-8', LC_CTYPE: 'ja_JP.UTF-8', LC_ALL: 'fr_FR.UTF-8' })
  })

  it('gives LC_ALL=C and POSIX the UTF-8 treatment, so wc -m counts characters (real wc)', () => {
    const charsIn = (env: Record<string, string>) =>
      spawnSync('sh', ['-c', "printf 'é' | wc -m"], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      })
        .stdout.toString()
        .trim()
    for (const value of ['C', 'POSIX']) {
      const env: Record<string, string> = { LANG: 'C.UTF-8', LC_ALL: value }
      expect(charsIn(env)).toBe('2')
      applyExecutionTextEnv(env, 'linux')
      expect(env.LC_ALL).toBe('C.UTF-8')
      expect(charsIn(env)).toBe('1')
    }
  })

  it('SHELLGATE_KEEP_LOCALE=1 keeps LC_ALL=C, LANG and LC_CTYPE exactly as they are', () => {
    const env = { LANG: 'C', LC_CTYPE: 'POSIX', LC_ALL: 'C', SHELLGATE_KEEP_LOCALE: '1' }
    applyExecutionTextEnv(env, 'linux')
    expect(env).toMatchObject({ LANG: 'C', LC_CTYPE: 'POSIX', LC_ALL: 'C' })
  })

  it('picks en_US.UTF-8 on macOS, which has no C.UTF-8', () => {
    expect(utf8LocaleFor('darwin')).toBe('en_US.UTF-8')
    const env: Record<string, string> = { LANG: 'C' }
    applyExecutionTextEnv(env, 'darwin')
    expect(env.LANG).toBe('en_US.UTF-8')
  })

  // The PYTHONUTF8 decision (see text-env.ts): on unless the user exported a value.
  it('sets PYTHONUTF8=1 and PYTHONIOENCODING=utf-8, and a real Python runs in UTF-8 mode', () => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/',
    }
    applyExecutionTextEnv(env, 'linux')
    expect(env.PYTHONUTF8).toBe('1')
    expect(env.PYTHONIOENCODING).toBe('utf-8')
    const python = spawnSync(
      'python3',
      ['-c', 'import sys,locale; print(sys.flags.utf8_mode, sys.stdout.encoding)'],
      { env },
    )
    expect(python.stdout.toString().trim()).toBe('1 utf-8')
  })

  it('respects PYTHONUTF8 the user exported, including 0', () => {
    const env: Record<string, string> = { PYTHONUTF8: '0' }
    applyExecutionTextEnv(env, 'linux')
    expect(env.PYTHONUTF8).toBe('0')
    const win: Record<string, string> = { pythonutf8: '0' }
    applyExecutionTextEnv(win, 'win32')
    expect(win).toEqual({ pythonutf8: '0', PYTHONIOENCODING: 'utf-8' })
  })
})
