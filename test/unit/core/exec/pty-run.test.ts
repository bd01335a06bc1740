import { execFile } from 'node:child_process'
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort, ExecInputError } from '../../../../src/main/core/exec'
import { isSecretMode } from '../../../../src/main/core/exec/terminal-types'
import {
  createTerminalModeReader,
  parseReaderLine,
  parseSttyFlags,
} from '../../../../src/main/core/exec/terminal-mode'
import { readPids, waitAllGone } from './process-checks'
import { tempDirsRemovedAfterEach } from './temp-dir'
import { terminalRunner } from './terminal-run'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const tempDir = tempDirsRemovedAfterEach()
const port = createExecutionPort()
const startTerminal = terminalRunner(port, PATH_ONLY)

function bash(command: string) {
  return { mode: 'shell' as const, command, shellProfile: 'posix-bash' as const }
}

describe('terminal runs (issue 23.1)', () => {
  it('runs on a terminal of the size asked, tagged, with its output in the 0600 file', async () => {
    const dir = tempDir()
    const run = startTerminal({
      dir,
      command: bash(
        '[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo "tty yes"; stty size; echo "tag=$SHELLGATE_RUN_ID"',
      ),
      terminal: { cols: 97, rows: 31 },
    })
    const result = await run.settled
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, outputPath: run.outputPath })
    const text = readFileSync(run.outputPath, 'utf8')
    // The terminal's own line endings are kept in the file (the desk renders them).
    expect(text).toContain('tty yes\r\n31 97\r\n')
    expect(text).toContain(`tag=${result.runId}`)
    expect(statSync(run.outputPath).mode & 0o777).toBe(0o600)
    expect(result.totalBytes).toBe(Buffer.byteLength(text))
  })

  it('answers a read -p prompt typed through the handle', async () => {
    const dir = tempDir()
    const run = startTerminal({
      dir,
      command: bash('read -r -p "Continue? [y/N] " answer; echo "answer=$answer"'),
    })
    await run.until('Continue? [y/N] ')
    run.terminal().write('y\r')
    const result = await run.settled
    expect(result.status).toBe('completed')
    expect(readFileSync(run.outputPath, 'utf8')).toContain('answer=y')
  })

  it('reads echo off during read -s, and what was typed never reaches the file', async () => {
    const dir = tempDir()
    const run = startTerminal({
      dir,
      command: bash('read -r -s -p "Password: " pw; echo; echo "length=$' + '{#pw}"'),
    })
    await run.until('Password: ')
    const mode = await run.terminal().mode()
    expect(mode).toEqual({ echo: false, canonical: true })
    expect(isSecretMode(mode)).toBe(true)
    run.terminal().write('hunter2-secret\r')
    await run.settled
    const text = readFileSync(run.outputPath, 'utf8')
    expect(text).toContain('length=14')
    expect(text).not.toContain('hunter2')
  })

  it('a readline prompt turns echo off too, but is raw, so it is not secret', async () => {
    const dir = tempDir()
    const run = startTerminal({ dir, command: bash('read -r -e -p "name> " name; echo "hi $name"') })
    await run.until('name> ')
    const mode = await run.terminal().mode()
    expect(mode?.canonical).toBe(false)
    expect(isSecretMode(mode)).toBe(false)
    run.terminal().write('ada\r')
    await run.settled
    expect(readFileSync(run.outputPath, 'utf8')).toContain('hi ada')
  })

  it('cancel kills the whole tree: a & child, a setsid daemon and the foreground program', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'pids')
    const controller = new AbortController()
    const run = startTerminal({
      dir,
      signal: controller.signal,
      command: bash(
        `sleep 300 & echo $! >> ${pidFile}; setsid sleep 301 & echo $! >> ${pidFile}; echo ready; sleep 302`,
      ),
    })
    await run.until('ready')
    const pids = await readPids(pidFile, 2)
    controller.abort()
    const result = await run.settled
    expect(result.status).toBe('cancelled')
    expect(await waitAllGone(pids)).toEqual([])
  })

  it('a hard timeout ends it as timed_out', async () => {
    const dir = tempDir()
    const run = startTerminal({ dir, command: bash('echo started; sleep 30'), timeoutMs: 300 })
    const result = await run.settled
    expect(result.status).toBe('timed_out')
    expect(result.timedOut).toBe(true)
  })

  it('the file cap kills a terminal run that prints without end', async () => {
    const dir = tempDir()
    const outputPath = join(dir, 'out.log')
    const result = await port.execute({
      command: bash('yes 0123456789abcdef'),
      terminal: { cols: 80, rows: 24 },
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath, capBytes: 64 * 1024 },
    })
    expect(result.outputLimitReached).toBe(true)
    expect(result.truncated).toBe(true)
  })

  it('a program that does not exist is a spawn error, not text on the terminal', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: { mode: 'argv', file: 'no-such-program-shellgate', args: [] },
      terminal: { cols: 80, rows: 24 },
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result.status).toBe('spawn_error')
    expect(result.spawnError?.code).toBe('ENOENT')
  })

  it('refuses pipe output, a bad size, Windows, and a symlink at the output path', async () => {
    const dir = tempDir()
    const base = { command: bash('true'), cwd: dir, env: PATH_ONLY }
    await expect(port.execute({ ...base, terminal: { cols: 80, rows: 24 } })).rejects.toThrow(
      /terminal run needs file output/,
    )
    const file = { mode: 'file' as const, outputPath: join(dir, 'a.log') }
    await expect(port.execute({ ...base, output: file, terminal: { cols: 0, rows: 24 } })).rejects.toThrow(
      ExecInputError,
    )
    await expect(port.execute({ ...base, output: file, terminal: { cols: 80, rows: 1.5 } })).rejects.toThrow(
      /rows must be a whole number/,
    )
    const windows = createExecutionPort({ platform: 'win32' })
    await expect(
      windows.execute({ ...base, output: file, terminal: { cols: 80, rows: 24 } }),
    ).rejects.toThrow(/not supported on Windows/)
    const target = join(dir, 'target')
    writeFileSync(target, 'keep')
    symlinkSync(target, join(dir, 'link.log'))
    const linked = await port.execute({
      ...base,
      output: { mode: 'file', outputPath: join(dir, 'link.log') },
      terminal: { cols: 80, rows: 24 },
    })
    expect(linked.spawnError?.code).toBe('ELOOP')
    expect(readFileSync(target, 'utf8')).toBe('keep')
  })

  it('resizes the running terminal', async () => {
    const dir = tempDir()
    const run = startTerminal({ dir, command: bash('read -r go; stty size') })
    await new Promise((resolve) => setTimeout(resolve, 0))
    run.terminal().resize(150, 50)
    expect(run.terminal().size).toEqual({ cols: 150, rows: 50 })
    run.terminal().write('\r')
    await run.settled
    expect(readFileSync(run.outputPath, 'utf8')).toContain('50 150')
    expect(() => run.terminal().write('late')).toThrow(/closed/)
  })
})

describe('the terminal mode reader', () => {
  it('answers through Perl, and through stty where no Perl starts; a path that is not a terminal is never opened', async () => {
    const dir = tempDir()
    const run = startTerminal({ dir, command: bash('read -r -s -p "pw: " pw') })
    await run.until('pw: ')
    const device = (run.terminal() as unknown as { term: { ptsName: string } }).term.ptsName
    const secret = { echo: false, canonical: true }
    expect(await createTerminalModeReader('linux').read(device)).toEqual(secret)
    const calls: string[][] = []
    const noPerl = createTerminalModeReader('linux', {
      perlPath: join(dir, 'no-such-perl'),
      execFile: (file, args, options, callback) => {
        calls.push([file, ...args])
        execFile(file, args, options, (error, stdout) => callback(error, String(stdout)))
      },
    })
    expect(await noPerl.read(device)).toEqual(secret)
    expect(await noPerl.read(device)).toEqual(secret)
    expect(calls.at(-1)).toEqual(['stty', '-F', device, '-a'])
    expect(await noPerl.read('/etc/passwd')).toBeNull()
    expect(await createTerminalModeReader('win32').read(device)).toBeNull()
    run.terminal().write('x\r')
    await run.settled
  })

  it('reads both outputs the same way', () => {
    expect(parseReaderLine('0 1')).toEqual({ echo: false, canonical: true })
    expect(parseReaderLine('?')).toBeNull()
    expect(parseSttyFlags('speed 38400 baud;\nisig icanon iexten -echo echoe')).toEqual({
      echo: false,
      canonical: true,
    })
    expect(parseSttyFlags('lflags: -icanon isig iexten echo echoe')).toEqual({ echo: true, canonical: false })
  })
})
