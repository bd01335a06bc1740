import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { bwrapPlan } from '../../../../src/main/core/sandbox/bwrap.linux'
import { pinMountSources } from '../../../../src/main/core/sandbox/pinned-sources.linux'
import {
  bashToolExecutionCommand,
  composeBashScript,
} from '../../../../src/main/core/shell/bash-command-line'
import { sandboxWorlds } from '../sandbox/sandbox-fixture'
import { terminalRunner } from './terminal-run'

const world = sandboxWorlds()
const ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent' }
const startTerminal = terminalRunner(createExecutionPort(), ENV)

type TerminalShell = { dialect: 'bash' | 'zsh'; path: string }
const SHELLS: TerminalShell[] = [
  { dialect: 'bash', path: '/bin/bash' },
  { dialect: 'zsh', path: '/usr/bin/zsh' },
]

/**
 * The Bash tool's command for a terminal run, as the product builds it (job control on): through
 * composeBashScript and bashToolExecutionCommand, so a shell that needs more than `set -m` to hand
 * the terminal to the program (zsh) is run the way the product runs it.
 */
function terminalCommand(shell: TerminalShell, command: string) {
  const script = composeBashScript({
    shell,
    snapshotPath: null,
    startupScriptPath: null,
    command,
    cwdFile: null,
    jobControl: true,
  })
  return bashToolExecutionCommand(shell, script, false, true)
}

describe('a terminal run inside bubblewrap (issue 23.1)', () => {
  it('keeps a private terminal in its session: no --new-session, every other namespace flag stays', () => {
    const w = world()
    const inner = { file: '/bin/true', args: [], windowsVerbatimArguments: false }
    const plain = bwrapPlan(w.base(), inner, w.workspace).args
    const terminal = bwrapPlan(w.base({ privateTerminal: true }), inner, w.workspace).args
    expect(plain).toContain('--new-session')
    expect(terminal).not.toContain('--new-session')
    expect(terminal).toEqual(plain.filter((arg) => arg !== '--new-session'))
  })

  it.each(SHELLS)(
    'python3 -i in the read-only profile under $dialect: Ctrl+C interrupts the program, not the sandbox',
    async (shell) => {
      const w = world()
      const run = startTerminal({
        dir: w.root,
        cwd: w.workspace,
        command: terminalCommand(shell, 'python3 -i -q; echo "python exited $?" # a comment stays one'),
        sandbox: w.base({ profile: 'read-only', privateTerminal: true }),
        timeoutMs: 30_000,
      })
      await run.until('>>> ')
      // A loop, not time.sleep: CPython loses a SIGINT that lands between its last signal check and
      // the sleep's syscall (13 of 200 tries on a loaded machine), while a loop
      // checks on every jump. "spinning" shows only once the loop is about to start, never in the echo.
      run.terminal().write('print("spin" + "ning"); exec("while True: pass")\r')
      await run.until('spinning\r\n')
      run.terminal().write('\x03')
      await run.until('KeyboardInterrupt')
      run.terminal().write('print("still here", 6 * 7)\r')
      await run.until('still here 42')
      // Inside the sandbox: the workspace is read-only, whatever the terminal lets it type.
      run.terminal().write('open("written", "w")\r')
      await run.until('Read-only file system')
      run.terminal().write('exit()\r')
      const result = await run.settled
      expect(readFileSync(run.outputPath, 'utf8')).toContain('python exited 0')
      expect(result.status).toBe('completed')
    },
  )

  it.each(SHELLS)(
    "getpass inside the sandbox under $dialect turns echo off on the task's terminal, and the password never shows",
    async (shell) => {
      const w = world()
      const run = startTerminal({
        dir: w.root,
        cwd: w.workspace,
        command: terminalCommand(
          shell,
          `python3 -c 'import getpass; p = getpass.getpass("Password: "); print("length", len(p))'; echo after`,
        ),
        sandbox: w.base({ privateTerminal: true }),
        timeoutMs: 30_000,
      })
      await run.until('Password: ')
      expect(await run.terminal().mode()).toEqual({ echo: false, canonical: true })
      run.terminal().write('correct horse battery\r')
      await run.settled
      const text = readFileSync(run.outputPath, 'utf8')
      expect(text).toContain('length 21')
      expect(text).toContain('after')
      expect(text).not.toContain('horse')
    },
  )

  it('mounts pinned sources too: the terminal child takes the descriptors itself, and bwrap closes them', async () => {
    const w = world()
    const sandbox = w.base({ privateTerminal: true })
    const pinned = pinMountSources(sandbox)
    try {
      expect(Object.keys(pinned.sources)).toContain(w.workspace)
      const run = startTerminal({
        dir: w.root,
        cwd: w.workspace,
        command: terminalCommand(
          SHELLS[0] as TerminalShell,
          'cat .git/HEAD; echo made > from-terminal; ls -l /proc/$$/fd | grep -c /var/tmp; echo done',
        ),
        sandbox: { ...sandbox, pinnedSources: pinned.sources },
        timeoutMs: 30_000,
      })
      const result = await run.settled
      const text = readFileSync(run.outputPath, 'utf8')
      expect(result.status, text).toBe('completed')
      expect(text).toContain('ref: refs/heads/main')
      // No descriptor of a host folder is left to the command inside.
      expect(text).toMatch(/\r?\n0\r?\ndone/)
      expect(readFileSync(join(w.workspace, 'from-terminal'), 'utf8')).toBe('made\n')
    } finally {
      pinned.close()
    }
  })
})
