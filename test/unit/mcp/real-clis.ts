import { execFile } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, expect } from 'vitest'
import { waitFor } from '../core/workbench/core-harness'
import { CLI_ENTRY, type TestHub, TSX_LOADER } from './test-hub'

const run = promisify(execFile)

/**
 * The agent CLIs and the MCP Inspector are real clients nobody here wrote, and they are never
 * dependencies of the product (a user's `npm install` must not download three agents). They live in
 * one npm prefix: `.ci/run` fills it before `npm test`; a developer sets SHELLGATE_TEST_INSTALL_CLIS=1
 * and the first test that needs one installs every missing pin there in one `npm install`.
 * Pinned exactly (test/fixtures/real-clis/versions.json, also read by .ci/run): their flags and
 * output are what the tests speak.
 *
 * SHELLGATE_TEST_CLIS=latest runs the same tests against whatever npm gives as `@latest`, in a second
 * prefix beside the first (`<cache>-latest`), so a new release is tried before it is pinned and the
 * pinned prefix is never touched. With SHELLGATE_TEST_INSTALL_CLIS=1 the first test that needs one
 * runs `npm install <each>@latest` there (at most once an hour); otherwise what is there is used. CI
 * never sets it, so it downloads no more than the pins.
 */
export type RealCliName = 'claude' | 'codex' | 'gemini' | 'inspector'
interface Pin {
  package: string
  version: string
  bin: string
}
export const REAL_CLI_PINS: Record<RealCliName, Pin> = JSON.parse(
  readFileSync(resolve('test/fixtures/real-clis/versions.json'), 'utf8'),
)
const LATEST = process.env.SHELLGATE_TEST_CLIS === 'latest'
const PINNED_CACHE = process.env.SHELLGATE_TEST_CLIS_CACHE ?? join(homedir(), '.cache', 'shellgate-test-clis')
export const REAL_CLIS_CACHE = LATEST ? `${PINNED_CACHE}-latest` : PINNED_CACHE
/** How often latest mode asks npm whether a newer release came out. */
const LATEST_RECHECK_MS = 60 * 60 * 1000

const specOf = (pin: Pin) => `${pin.package}@${LATEST ? 'latest' : pin.version}`

function installedVersion(pin: Pin): string | null {
  try {
    const manifest = JSON.parse(
      readFileSync(join(REAL_CLIS_CACHE, 'node_modules', pin.package, 'package.json'), 'utf8'),
    ) as { version?: unknown }
    return typeof manifest.version === 'string' ? manifest.version : null
  } catch {
    return null
  }
}

const hasBin = (pin: Pin) => existsSync(join(REAL_CLIS_CACHE, 'node_modules', '.bin', pin.bin))
const isReady = (pin: Pin) => (LATEST || installedVersion(pin) === pin.version) && hasBin(pin)

/** Latest mode: whether `npm install …@latest` ran in the last hour (a stamp file in the prefix). */
function latestIsFresh(): boolean {
  try {
    return Date.now() - statSync(join(REAL_CLIS_CACHE, '.latest-checked')).mtimeMs < LATEST_RECHECK_MS
  } catch {
    return false
  }
}

/** The CLI's binary, or why the test cannot have it (not installed, or the registry is unreachable). */
export async function realCliOrWhyNot(name: RealCliName): Promise<{ bin: string } | { skip: string }> {
  const pin = REAL_CLI_PINS[name]
  const bin = join(REAL_CLIS_CACHE, 'node_modules', '.bin', pin.bin)
  const wantInstall = process.env.SHELLGATE_TEST_INSTALL_CLIS === '1'
  if (isReady(pin) && !(LATEST && wantInstall && !latestIsFresh())) return { bin }
  if (!wantInstall) {
    const found = installedVersion(pin)
    return {
      skip: `${specOf(pin)} is not in ${REAL_CLIS_CACHE}${found ? ` (${found} is)` : ''}; run .ci/run or set SHELLGATE_TEST_INSTALL_CLIS=1 to install it there`,
    }
  }
  await mkdir(REAL_CLIS_CACHE, { recursive: true })
  const missing = Object.values(REAL_CLI_PINS)
    .filter((each) => LATEST || !isReady(each))
    .map(specOf)
  try {
    // flock: test files run in parallel, and two npm installs into one prefix undo each other.
    await run(
      'flock',
      [
        join(REAL_CLIS_CACHE, '.install.lock'),
        'npm',
        'install',
        '--save-exact',
        '--no-audit',
        '--no-fund',
        '--prefix',
        REAL_CLIS_CACHE,
        ...missing,
      ],
      { timeout: 280_000 },
    )
    if (LATEST) await writeFile(join(REAL_CLIS_CACHE, '.latest-checked'), `${new Date().toISOString()}\n`)
  } catch (error) {
    const npmSays = String((error as { stderr?: unknown }).stderr ?? '')
      .split('\n')
      .find((line) => line.startsWith('npm error'))
    return {
      skip: `the npm registry could not be reached to install ${missing.join(' ')}: ${npmSays ?? (error as Error).message.split('\n')[0]}`,
    }
  }
  return isReady(pin) ? { bin } : { skip: `${specOf(pin)} installed without its ${pin.bin} binary` }
}

/** Skips the test, with the reason on stderr too (vitest's summary alone does not show it). */
export function skipWithReason(context: { skip: (note?: string) => void }, reason: string): void {
  process.stderr.write(`skipped: ${reason}\n`)
  context.skip(reason)
}

/** Agent CLIs stay quiet: no updater, no telemetry, no traffic they do not need. */
export const OFFLINE_ENV = {
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  NO_UPDATE_NOTIFIER: '1',
}

/**
 * Runs a CLI in a network namespace of its own (bubblewrap, as the sandbox tests do): it has only
 * its own loopback, so whatever a CLI tries to reach stays on this machine. The hub is a Unix
 * socket, which the namespace does not cut.
 */
export function offline(bin: string, args: string[]): [string, string[]] {
  return ['bwrap', ['--dev-bind', '/', '/', '--unshare-net', '--die-with-parent', '--', bin, ...args]]
}

export interface AgentHome {
  /** A temp folder used as HOME, the agent's config home lives under it. */
  home: string
  /** A folder with a `shellgate` on it that runs this source tree, first on PATH. */
  path: string
  dispose(): Promise<void>
}

/**
 * A temp HOME for one agent, and a `shellgate` command on PATH: `shellgate connect` writes the plain
 * `shellgate mcp` / `shellgate hook <client>` a user gets, so the real CLI must find that command.
 */
/** The hub and the agent home a real-CLI test starts; both disposed after each test. */
export interface HubAndAgent {
  hub: TestHub | null
  agent: AgentHome | null
}

/** Registers the disposal with afterEach, so no hub process or temp home outlives its test. */
export function disposedAfterEach(): HubAndAgent {
  const held: HubAndAgent = { hub: null, agent: null }
  afterEach(async () => {
    await held.hub?.dispose()
    held.hub = null
    await held.agent?.dispose()
    held.agent = null
  })
  return held
}

export async function makeAgentHome(prefix: string): Promise<AgentHome> {
  const home = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  const binDir = join(home, 'bin')
  await mkdir(binDir)
  const shellgate = join(binDir, 'shellgate')
  await writeFile(
    shellgate,
    `#!/bin/sh\nexec '${process.execPath}' --import '${TSX_LOADER}' '${CLI_ENTRY}' "$@"\n`,
  )
  await chmod(shellgate, 0o755)
  return {
    home,
    path: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    async dispose() {
      await stopStrayHub(home)
      await rm(home, { recursive: true, force: true })
    },
  }
}

/**
 * When a client drops SHELLGATE_HOME, `shellgate mcp` finds no hub under ~/.shellgate and starts one
 * there, detached. The tests assert that does not happen; this ends such a hub (by the pid in its
 * lock) so a failing test leaves nothing running.
 */
async function stopStrayHub(home: string): Promise<void> {
  const lock = await readFile(join(home, '.shellgate', 'run', 'hub.lock'), 'utf8').catch(() => '')
  const pid = Number.parseInt(lock.trim().match(/\d+/)?.[0] ?? '', 10)
  if (Number.isInteger(pid) && pid > 1) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
}

/** `shellgate connect <client> --write` as a user runs it, with the given environment. */
export async function connectWrite(client: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', TSX_LOADER, CLI_ENTRY, 'connect', client, '--write'],
    { env, timeout: 60_000 },
  )
  return stdout
}

export type CardAnswer = { kind: 'allow_once' } | { kind: 'deny'; message: string }

/**
 * The scripted turn's one approval card, as the person sees it in the hub: it must name the agent,
 * the command its model asked for and the workspace; then the person answers it.
 */
export async function answerAgentCard(
  hub: TestHub,
  expected: { agent: string; command: string; description?: string },
  answer: CardAnswer,
): Promise<void> {
  const card = await waitFor(() => hub.host.core.approvals.list()[0], 'an approval card', 120_000)
  expect(card).toMatchObject({
    command: expected.command,
    cwd: hub.workspace,
    ...(expected.description ? { description: expected.description } : {}),
  })
  const sessions = await hub.ui.request('sessions.list', {})
  expect(sessions.find((session) => session.id === card.sessionId)?.agent?.name).toBe(expected.agent)
  await hub.ui.request('approvals.answer', { id: card.id, answer })
}

/** Which tool the stand-in's model calls (default: the agent's own shell tool), and with what. */
export interface ScriptedStep {
  tool?: string
  /** More tool input beside `command` (e.g. run_in_background). */
  input?: Record<string, unknown>
  /** Appends every request the CLI sent its model, one JSON line each (SG_DEBUG sets one). */
  log?: string
}

/** One headless turn of a real agent CLI behind a local stand-in for its model API, offline. */
export function scriptedTurn(
  fakeApi: string,
  resultsFile: string,
  command: string,
  cli: string[],
  step: ScriptedStep = {},
): [string, string[]] {
  const log = step.log ?? (process.env.SG_DEBUG ? `${resultsFile}.requests.jsonl` : undefined)
  const options = [
    ...(step.tool ? ['--tool', step.tool] : []),
    ...(step.input ? ['--input', JSON.stringify(step.input)] : []),
    ...(log ? ['--log', log] : []),
  ]
  return offline(process.execPath, [fakeApi, ...options, resultsFile, command, '--', ...cli])
}
