import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort, ExecInputError, runProcess } from '../../../../src/main/core/exec'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()

/** A Windows port whose spawn, if it were ever reached, leaves the marker behind. */
function win32Port(marker: string) {
  return createExecutionPort({
    platform: 'win32',
    isFile: (path) => /npm\.cmd$/i.test(path),
    spawnFile: () => {
      writeFileSync(marker, '')
      throw new Error('spawned')
    },
  })
}
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('bad input is rejected before anything is spawned', () => {
  // Each case would create `marker` if a process were started.
  const cases: [string, (marker: string, dir: string) => Promise<unknown>, RegExp][] = [
    [
      'empty file name',
      () => runProcess({ file: '', args: [] }, { timeoutMs: 1000, maxOutputBytes: 10 }),
      /file must be a non-empty string/,
    ],
    [
      'non-string args',
      (marker) =>
        runProcess(
          { file: 'touch', args: [marker, 42 as unknown as string] },
          { timeoutMs: 1000, maxOutputBytes: 10, env: PATH_ONLY },
        ),
      /args\[1\] must be a string/,
    ],
    [
      'negative maxOutputBytes',
      (marker) =>
        runProcess(
          { file: 'touch', args: [marker] },
          { timeoutMs: 1000, maxOutputBytes: -1, env: PATH_ONLY },
        ),
      /maxOutputBytes must be a whole number/,
    ],
    [
      'negative timeoutMs',
      (marker) =>
        runProcess({ file: 'touch', args: [marker] }, { timeoutMs: -5, maxOutputBytes: 10, env: PATH_ONLY }),
      /timeoutMs must be a whole number/,
    ],
    [
      'cwd that does not exist',
      (marker, dir) =>
        runProcess(
          { file: 'touch', args: [marker] },
          { timeoutMs: 1000, maxOutputBytes: 10, env: PATH_ONLY, cwd: join(dir, 'nope') },
        ),
      /cwd does not exist/,
    ],
    [
      'cwd that is a file',
      (marker, dir) => {
        writeFileSync(join(dir, 'file'), '')
        return runProcess(
          { file: 'touch', args: [marker] },
          { timeoutMs: 1000, maxOutputBytes: 10, env: PATH_ONLY, cwd: join(dir, 'file') },
        )
      },
      /cwd is not a directory/,
    ],
    [
      'env value that is not a string',
      (marker) =>
        runProcess(
          { file: 'touch', args: [marker] },
          { timeoutMs: 1000, maxOutputBytes: 10, env: { ...PATH_ONLY, N: 1 as unknown as string } },
        ),
      /env\.N must be a string/,
    ],
    [
      'port: unknown command mode',
      (marker, dir) =>
        createExecutionPort().execute({
          command: { mode: 'exec', file: 'touch', args: [marker] } as never,
          cwd: dir,
          env: PATH_ONLY,
        }),
      /command\.mode must be "argv" or "shell"/,
    ],
    [
      'port: a timeout past what a Node timer can hold (it would fire after 1 ms)',
      (marker, dir) =>
        createExecutionPort().execute({
          command: { mode: 'argv', file: 'touch', args: [marker] },
          cwd: dir,
          env: PATH_ONLY,
          timeoutMs: 9_999_999_999,
        }),
      /timeoutMs must be at most 2147483647/,
    ],
    [
      'port: negative inline limit',
      (marker, dir) =>
        createExecutionPort().execute({
          command: { mode: 'argv', file: 'touch', args: [marker] },
          cwd: dir,
          env: PATH_ONLY,
          output: { mode: 'pipe', inlineLimitBytes: -1 },
        }),
      /inlineLimitBytes must be a whole number/,
    ],
    [
      'win32: a line break in an argument to a .cmd (cmd.exe would run the rest)',
      (marker) =>
        win32Port(marker).execute({
          command: { mode: 'argv', file: 'C:\\bin\\npm.cmd', args: ['run', 'x\r\ncalc'] },
          cwd: '/',
          env: { Path: 'C:\\bin' },
        }),
      /args\[1\] for npm\.cmd contains a line break/,
    ],
    [
      'win32: a line break in an argument to cmd.exe named in argv mode',
      (marker) =>
        win32Port(marker).execute({
          command: { mode: 'argv', file: 'C:\\Windows\\System32\\cmd.exe', args: ['/c', 'dir\ncalc'] },
          cwd: '/',
          env: { Path: 'C:\\bin' },
        }),
      /args\[1\] for cmd\.exe contains a line break/,
    ],
  ]

  for (const [name, run, message] of cases) {
    it(name, async () => {
      const dir = tempDir()
      const marker = join(dir, 'started')
      const error = await run(marker, dir).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ExecInputError)
      expect((error as Error).message).toMatch(message)
      expect((error as ExecInputError).code).toBe('invalid_input')
      expect(existsSync(marker)).toBe(false)
    })
  }
})
