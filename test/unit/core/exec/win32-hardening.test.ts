import { win32 } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpdir } from 'node:os'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { executorNotes } from '../../../../src/main/core/exec/executor-notes'
import { ExecInputError } from '../../../../src/main/core/exec/exec-input-error'
import type { ExecutionRequest } from '../../../../src/main/core/exec/types'
import { resolveWindowsExecutable } from '../../../../src/main/core/exec/windows-executable'
import { recordingSpawn } from './win32-fake-child'

/** Files that exist on the pretend machine; relative paths resolve against the pretend cwd, as Windows does. */
const CWD = 'C:\\repo'
const EXISTING = new Set(
  [
    'C:\\tools\\git.EXE',
    'C:\\bin\\npm.cmd',
    'C:\\bin\\build.bat',
    'C:\\repo\\git.EXE',
    'C:\\repo\\cmd.exe',
    'C:\\Windows\\System32\\cmd.exe',
  ].map((p) => p.toLowerCase()),
)
const isFile = (path: string) => EXISTING.has(win32.resolve(CWD, path).toLowerCase())
const WIN_ENV = {
  Path: 'C:\\tools;C:\\bin',
  ComSpec: 'C:\\Windows\\System32\\cmd.exe',
  SystemRoot: 'C:\\Windows',
}

function winPort(behaviour?: Parameters<typeof recordingSpawn>[0], hostEnv: Record<string, string> = {}) {
  const recorder = recordingSpawn(behaviour)
  const port = createExecutionPort({
    platform: 'win32',
    spawnFile: recorder.spawnFile,
    isFile,
    hostEnv,
    chcp: async () => '65001',
    locale: 'en-US',
  })
  return { port, calls: recorder.calls }
}

const argv = (file: string, args: string[], env: Record<string, string> = WIN_ENV): ExecutionRequest => ({
  command: { mode: 'argv', file, args },
  cwd: '/',
  env,
})

describe('win32: no CR or LF on a cmd.exe command line (issue 15.10)', () => {
  it.each([
    ['LF', 'a\nb'],
    ['CR', 'a\rb'],
    ['CRLF then a second command', 'x\r\ncalc.exe'],
  ])('an argument with %s to a .cmd is refused before any spawn', async (_name, arg) => {
    const { port, calls } = winPort()
    const pending = port.execute(argv('npm', ['run', arg]))
    await expect(pending).rejects.toBeInstanceOf(ExecInputError)
    await expect(pending).rejects.toThrow(/args\[1\] for npm\.cmd contains a line break/i)
    expect(calls).toEqual([])
  })

  it('the same for a .bat target', async () => {
    const { port, calls } = winPort()
    const pending = port.execute(argv('build', ['x\r\ncalc.exe']))
    await expect(pending).rejects.toBeInstanceOf(ExecInputError)
    await expect(pending).rejects.toThrow(/args\[0\] for build\.bat contains a line break/i)
    expect(calls).toEqual([])
  })

  it.each([
    ['by name', 'cmd'],
    ['by path', 'C:\\Windows\\System32\\cmd.exe'],
  ])(
    'argv mode naming cmd.exe itself (%s): a line break in its arguments is refused too',
    async (_how, file) => {
      const { port, calls } = winPort()
      const env = { ...WIN_ENV, Path: 'C:\\Windows\\System32;C:\\tools' }
      const pending = port.execute(argv(file, ['/c', 'echo hi\r\ncalc.exe'], env))
      await expect(pending).rejects.toBeInstanceOf(ExecInputError)
      await expect(pending).rejects.toThrow(/args\[1\] for cmd\.exe contains a line break/i)
      expect(calls).toEqual([])
    },
  )

  it('a cmd shell-mode command with a line break is refused too; NUL stays refused', async () => {
    const { port, calls } = winPort()
    await expect(
      port.execute({ command: { mode: 'shell', command: 'dir\ndel x' }, cwd: '/', env: WIN_ENV }),
    ).rejects.toThrow(/line break/)
    await expect(port.execute(argv('npm', ['a\0b']))).rejects.toThrow(/NUL/)
    expect(calls).toEqual([])
  })

  it('an .exe target keeps its line breaks: no cmd.exe parses them', async () => {
    const { port, calls } = winPort()
    await port.execute(argv('git', ['commit', '-m', 'line one\nline two']))
    expect(calls[0]).toMatchObject({
      file: 'C:\\tools\\git.EXE',
      args: ['commit', '-m', 'line one\nline two'],
    })
  })
})

describe('win32: no bare names, no current-directory lookups (issue 15.11)', () => {
  it('a relative PATH entry is skipped, so a git.exe planted in the cwd is not found through it', () => {
    expect(resolveWindowsExecutable('git', { PATH: '.;C:\\tools' }, CWD, isFile)).toBe('C:\\tools\\git.EXE')
    // Drive-relative and root-relative entries name the cwd's drive: `\\repo` is where git.exe is planted.
    expect(resolveWindowsExecutable('git', { PATH: 'C:relative;\\repo' }, CWD, isFile)).toBeNull()
    expect(resolveWindowsExecutable('git', { PATH: 'C:repo' }, 'C:\\', isFile)).toBeNull()
  })

  it('an unresolved bare name is not spawned: a spawn_error result with the reason, as ENOENT is on POSIX (issue 24.1)', async () => {
    const { port, calls } = winPort()
    const result = await port.execute(argv('missing-tool', []))
    expect(result).toMatchObject({ status: 'spawn_error', exitCode: null, exitSignal: null })
    expect(result.spawnError?.code).toBe('ENOENT')
    expect(result.errorMessage).toMatch(
      /Failed to start missing-tool: "missing-tool" was not found .* current directory/,
    )
    expect(calls).toEqual([])
    // The same request on POSIX: the same status and code.
    const posix = await createExecutionPort().execute({
      ...argv('shellgate-missing-tool', []),
      cwd: tmpdir(),
    })
    expect(posix).toMatchObject({ status: 'spawn_error', spawnError: { code: 'ENOENT' } })
  })

  it('the spawned file is always the absolute path that was resolved', async () => {
    const { port, calls } = winPort()
    await port.execute(argv('git', ['status']))
    expect(calls.map((call) => call.file)).toEqual(['C:\\tools\\git.EXE'])
  })

  it.each([
    ['missing', { Path: 'C:\\bin', SystemRoot: 'D:\\Win' }, 'D:\\Win\\System32\\cmd.exe'],
    [
      'a bare name',
      { Path: 'C:\\bin', SystemRoot: 'D:\\Win', ComSpec: 'cmd.exe' },
      'D:\\Win\\System32\\cmd.exe',
    ],
    ['missing, and no SystemRoot', { Path: 'C:\\bin' }, 'C:\\Windows\\System32\\cmd.exe'],
    ['absolute', { Path: 'C:\\bin', COMSPEC: 'E:\\cmd\\cmd.exe' }, 'E:\\cmd\\cmd.exe'],
  ])('ComSpec %s → %s', async (_name, env, expected) => {
    const { port, calls } = winPort()
    await port.execute(argv('npm', ['test'], env as Record<string, string>))
    expect(calls[0]?.file).toBe(expected)
  })
})

describe('win32: one PATH key (issue 15.12)', () => {
  it('Path and PATH are merged into the spelling the parent uses, keeping the value set last', async () => {
    const { port, calls } = winPort(undefined, { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows' })
    // The request's first spelling is PATH: only the parent's `Path` can make the merged key `Path`.
    const { Path: _path, ...rest } = WIN_ENV
    await port.execute(argv('git', [], { PATH: 'C:\\tools', ...rest, Path: 'C:\\tools;C:\\bin;C:\\extra' }))
    const env = calls[0]!.options.env!
    expect(Object.keys(env).filter((key) => key.toUpperCase() === 'PATH')).toEqual(['Path'])
    expect(env.Path).toBe('C:\\tools;C:\\bin;C:\\extra')
  })

  it('without a parent spelling, the first spelling seen is kept', async () => {
    const { port, calls } = winPort()
    await port.execute(argv('git', [], { PATH: 'C:\\tools', path: 'C:\\tools;C:\\bin' }))
    const env = calls[0]!.options.env!
    expect(Object.keys(env).filter((key) => key.toUpperCase() === 'PATH')).toEqual(['PATH'])
    expect(env.PATH).toBe('C:\\tools;C:\\bin')
  })
})

describe("win32: taskkill's exit code is read (issue 15.13)", () => {
  it('exit 128 (no such process): the process beat the kill, and its tree may outlive it', async () => {
    const { port, calls } = winPort({ hang: true, taskkillExitCode: 128 })
    const result = await port.execute({ ...argv('git', []), timeoutMs: 30 })
    expect(calls[1]?.args).toEqual(['/pid', '4242', '/T', '/F'])
    // It had exited by itself before taskkill looked: it completed, with its own exit code (issue 24.1).
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, exitSignal: null })
    expect(result.termination).toMatchObject({ signal: 'SIGKILL', exitedOnItsOwn: true })
    expect(result.termination?.problem).toMatch(/no process 4242 \(exit 128\).*may still be running/)
  })

  it('another failure is reported as such, never as a kill by SIGKILL', async () => {
    const { port } = winPort({ hang: true, unkillable: true, taskkillExitCode: 1 })
    const result = await port.execute({ ...argv('git', []), timeoutMs: 30 })
    expect(result).toMatchObject({ status: 'timed_out', exitCode: null, exitSignal: null })
    expect(result.termination).toMatchObject({ exitedOnItsOwn: false })
    expect(result.termination?.problem).toMatch(/taskkill exited with 1; process 4242 may still be running/)
  }, 15_000)

  it('exit 0: the tree was killed, with nothing to report', async () => {
    const { port } = winPort({ hang: true })
    const result = await port.execute({ ...argv('git', []), timeoutMs: 30 })
    expect(result.termination).toEqual({
      signal: 'SIGKILL',
      exitedOnItsOwn: false,
      ownExitCode: null,
      problem: null,
    })
  })

  it('a background process holding the output is stopped by taskkill, and the result says so', async () => {
    const { port, calls } = winPort({ holdsOutput: true })
    const result = await port.execute({ ...argv('git', []), timeoutMs: 20_000 })
    expect(calls.map((call) => [call.file, call.args])).toEqual([
      ['C:\\tools\\git.EXE', []],
      ['C:\\Windows\\System32\\taskkill.exe', ['/pid', '4242', '/T', '/F']],
    ])
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, termination: null })
    expect(result.lingering).toEqual({ pids: 1, killed: true, heldOutput: true })
    expect(executorNotes(result)).toEqual(['a background process kept the output open; it was stopped'])
  })

  it('when taskkill fails on what held the output, the result says it could not be stopped', async () => {
    const { port } = winPort({ holdsOutput: true, taskkillExitCode: 1 })
    const result = await port.execute({ ...argv('git', []), timeoutMs: 20_000 })
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, termination: null })
    expect(result.lingering).toEqual({ pids: 1, killed: false, heldOutput: true })
    expect(executorNotes(result)).toEqual([
      'a background process kept the output open; it could not be stopped',
    ])
  })
})
