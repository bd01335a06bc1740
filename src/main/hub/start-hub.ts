import { spawn } from 'node:child_process'
import { constants } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { connectToHub } from './hub-client'
import { HubError } from './hub-error'
import { ensureRunDir } from './run-dir'

/** A cold start captures the login shell and opens settings; well under this on any machine. */
export const HUB_START_TIMEOUT_MS = 30_000
const POLL_INTERVAL_MS = 100
const LOG_TAIL_CHARS = 500

/**
 * Starts `shellgate serve` detached (it outlives the caller, in its own process group, output in
 * run/hub.log), waits until its endpoint answers, and returns its bare UI address (a login is the
 * hub's to open: hub.openUi). A hub that another starter won the race to is just as good: we
 * connect to whichever answers.
 */
export async function startDetachedHub(options: {
  home: string
  workspace: string
  env: Record<string, string | undefined>
  /** How to run the CLI; default: the CLI this process runs from. */
  cliArgv?: string[]
}): Promise<{ uiUrl: string | null }> {
  // A running hub is used as it is. Spawning a serve anyway would leave one starting that, should
  // the running hub stop before it looks, claims the home and runs on with nobody to stop it.
  const running = await runningUiUrl(options.home)
  if (running) return running
  const runDir = join(options.home, 'run')
  await ensureRunDir(runDir, () => undefined)
  const logFile = join(runDir, 'hub.log')
  const log = await open(
    logFile,
    constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o600,
  ).catch((error: NodeJS.ErrnoException) => {
    // ELOOP: a symlink; ENXIO: a FIFO nobody reads. Neither is written through or waited on.
    if (error.code === 'ELOOP' || error.code === 'ENXIO') throw notRegular(logFile)
    throw error
  })
  const child: { exit: { code: number | null } | null } = { exit: null }
  try {
    if (!(await log.stat()).isFile()) throw notRegular(logFile)
    const started = spawn(
      process.execPath,
      // Its stdout is run/hub.log: a login code printed there would outlive its purpose.
      [
        ...(options.cliArgv ?? defaultCliArgv()),
        'serve',
        '--no-login-code',
        '--workspace',
        options.workspace,
      ],
      {
        detached: true,
        stdio: ['ignore', log.fd, log.fd],
        env: { ...options.env, SHELLGATE_HOME: options.home },
        cwd: options.workspace,
      },
    )
    started.once('exit', (code) => {
      child.exit = { code }
    })
    started.once('error', () => {
      child.exit = { code: null }
    })
    started.unref()
  } finally {
    await log.close()
  }

  const deadline = Date.now() + HUB_START_TIMEOUT_MS
  while (Date.now() < deadline) {
    const answered = await runningUiUrl(options.home)
    if (answered) return answered
    const ended = child.exit
    if (ended && ended.code !== 0) {
      const tail = (await readFile(logFile, 'utf8').catch(() => '')).slice(-LOG_TAIL_CHARS).trim()
      throw new HubError(
        'hub_start_failed',
        `shellgate serve exited with ${ended.code ?? 'an error'} before its endpoint answered${tail ? `: ${tail}` : ''}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
  }
  throw new HubError('hub_not_ready', `no hub answered for ${options.home} within ${HUB_START_TIMEOUT_MS} ms`)
}

function notRegular(logFile: string): HubError {
  return new HubError(
    'hub_start_failed',
    `${logFile} is not a regular file (a symlink or FIFO put there?); Shellgate writes nothing through it. Remove it, then start again`,
  )
}

/** The bare UI address of the hub serving `home`, or null when none answers. */
async function runningUiUrl(home: string): Promise<{ uiUrl: string | null } | null> {
  const connection = await connectToHub({ home })
  if (!connection) return null
  await connection.close()
  return { uiUrl: connection.uiUrl }
}

/** In the built app this module is part of the CLI bundle; in development it runs under tsx. */
function defaultCliArgv(): string[] {
  const here = fileURLToPath(import.meta.url)
  // Resolved here, not in the child: it starts in the workspace, which has no node_modules of ours.
  if (here.endsWith('.ts'))
    return ['--import', import.meta.resolve('tsx'), resolve(dirname(here), '..', 'cli.ts')]
  return [process.argv[1] ?? here]
}
