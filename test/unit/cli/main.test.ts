import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from './run-cli'

const version = JSON.parse(readFileSync('package.json', 'utf8')).version

describe('shellgate (top level)', () => {
  it('prints help listing every command', async () => {
    const { code, stdout } = await runCliCaptured(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: shellgate <command>')
    expect(stdout).toMatch(/^ {2}serve {2,}/m)
  })

  it('prints the package version', async () => {
    expect(await runCliCaptured(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('names an unknown command in one line and exits 2', async () => {
    const { code, stderr, stdout } = await runCliCaptured(['frobnicate'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe('shellgate: unknown command "frobnicate" (see shellgate --help)\n')
  })

  it('names a bad flag in one line and exits 2', async () => {
    const { code, stderr } = await runCliCaptured(['serve', '--bogus'])
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain('--bogus')
  })

  it.each([
    [['serve', '--port', 'abc'], '--port must be a whole number'],
    [['serve', '--port', '70000'], '--port must be at most 65535'],
    [['serve', '--workspace', '/definitely/not/here'], 'does not exist'],
    [['serve', 'extra'], 'unexpected argument "extra"'],
    [['serve', '--port', '-1'], '--port does not take "-1"'],
  ])('serve %j → exit 2 with "%s"', async (argv, message) => {
    const { code, stderr } = await runCliCaptured(argv)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
  })

  it('shows per-command usage', async () => {
    const { code, stdout } = await runCliCaptured(['serve', '--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: shellgate serve')
  })
})
