import { join } from 'node:path'
import type { TerminalHandle } from '../../../../src/main/core/exec/terminal-types'
import type { ExecutionPort, ExecutionRequest } from '../../../../src/main/core/exec/types'

/** Starts a terminal run and hands back its handle with a way to wait for text on the screen. */
export function terminalRunner(port: ExecutionPort, env: Record<string, string>) {
  return (request: Omit<ExecutionRequest, 'cwd' | 'env' | 'output'> & { dir: string; cwd?: string }) => {
    const outputPath = join(request.dir, 'out.log')
    let seen = ''
    let terminal: TerminalHandle | null = null
    const waiters: Array<{ text: string; resolve: () => void }> = []
    const settled = port.execute(
      {
        terminal: { cols: 120, rows: 40 },
        ...request,
        cwd: request.cwd ?? request.dir,
        env,
        output: { mode: 'file', outputPath },
      },
      {
        onTerminal(handle) {
          terminal = handle
          handle.onData((chunk) => {
            seen += chunk.toString('utf8')
            for (const waiter of waiters.splice(0)) {
              if (seen.includes(waiter.text)) waiter.resolve()
              else waiters.push(waiter)
            }
          })
        },
      },
    )
    return {
      settled,
      outputPath,
      terminal: () => {
        if (!terminal) throw new Error('no terminal handle yet')
        return terminal
      },
      /** Fails (well inside the test's own timeout) with what the screen showed, not a bare timeout. */
      until: (text: string, timeoutMs = 15_000) =>
        new Promise<void>((resolve, reject) => {
          if (seen.includes(text)) return resolve()
          const timer = setTimeout(() => {
            const index = waiters.indexOf(waiter)
            if (index >= 0) waiters.splice(index, 1)
            reject(
              new Error(
                `${JSON.stringify(text)} never showed in ${timeoutMs} ms; the screen had ${JSON.stringify(seen.slice(-600))}`,
              ),
            )
          }, timeoutMs)
          const waiter = {
            text,
            resolve: () => {
              clearTimeout(timer)
              resolve()
            },
          }
          waiters.push(waiter)
        }),
    }
  }
}
