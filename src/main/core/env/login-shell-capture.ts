import { accessSync, constants, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { type RunProbe, runProbeProcess } from '../shell/probe-process'
import { type EnvRecord, toEnvRecord } from './env-keys'
import { isAllowlistedLoginEnvKey } from './login-env-allowlist'
import { buildLoginShellProbe, loginShellCandidates, parseLoginShellProbeOutput } from './login-shell-probe'
import { patchPathWithoutShell } from './path-patch'
import { readSealedEnv } from './sanitize-entry'
import { entryKeyFate, TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'

/** seed 000: a login shell that takes longer than this is killed with its whole group. */
export const LOGIN_SHELL_CAPTURE_TIMEOUT_MS = 4_000
/** seed 000: `env -0` of a sane environment is a few KiB; more means an rc gone wrong. */
export const LOGIN_SHELL_CAPTURE_MAX_OUTPUT_BYTES = 2 * 1024 * 1024

export type LoginShellCaptureStatus = 'captured' | 'failed' | 'timed_out' | 'skipped'

/** What may be shown anywhere (Settings → Environment, `shellgate env --json`): names, never values. */
export interface LoginShellEnvReport {
  status: LoginShellCaptureStatus
  /** The shell that ran, or null when none did. */
  shell: string | null
  durationMs: number
  /** Adopted variable names (PATH and allowlisted), sorted. */
  keys: string[]
  /**
   * Proxy and certificate names the login shell added to what is sealed for children, sorted. A
   * name already sealed when Shellgate started is not counted again: that value wins (merge).
   */
  sealedKeys: string[]
  /** Why it failed or what was odd (a missing $SHELL), for the user. */
  messages: string[]
  /** On failure: PATH was patched without running a shell. */
  pathPatched: boolean
}

export interface LoginShellEnvCapture {
  report: LoginShellEnvReport
  /** PATH and allowlisted values to adopt into the runtime env. */
  env: EnvRecord
  /** Proxy/CA values to add to the sealed passthrough. */
  sealed: EnvRecord
}

export interface CaptureLoginShellEnvOptions {
  /** The sanitised runtime env the probe starts from. */
  env: NodeJS.ProcessEnv | Readonly<EnvRecord>
  platform: NodeJS.Platform
  /** Default: env.SHELL, then /bin/zsh, /bin/bash, /bin/sh. */
  shells?: string[]
  timeoutMs?: number
  /** Default: the interim probe runner; tests and the port may pass runProcess. */
  runProbe?: RunProbe
}

const cache = new Map<string, Promise<LoginShellEnvCapture>>()

/**
 * The user's login-shell environment, captured once per process and set of inputs (seed 000):
 * GUI-launched apps never ran the user's rc files, so their PATH lacks brew, nvm, pyenv and the
 * like. Never rejects: every failure is a report with a PATH patched without running a shell.
 */
export function captureLoginShellEnv(options: CaptureLoginShellEnvOptions): Promise<LoginShellEnvCapture> {
  const env = toEnvRecord(options.env)
  const shells = options.shells ?? loginShellCandidates(env.SHELL)
  const key = JSON.stringify([
    options.platform,
    shells,
    env.HOME,
    env.PATH,
    options.timeoutMs,
    env[TOOL_ENV_PASSTHROUGH_KEY],
  ])
  let pending = cache.get(key)
  if (!pending) {
    pending = runCapture({ ...options, env, shells })
    cache.set(key, pending)
  }
  return pending
}

/** Tests and "re-detect" in Settings start over. */
export function forgetLoginShellEnvCaptures(): void {
  cache.clear()
}

async function runCapture(
  options: CaptureLoginShellEnvOptions & { env: EnvRecord; shells: string[] },
): Promise<LoginShellEnvCapture> {
  const started = performance.now()
  const messages: string[] = []
  const elapsed = () => Math.round(performance.now() - started)
  if (options.platform === 'win32') {
    return {
      report: report('skipped', null, 0, [], [], ['login shells do not exist on Windows'], false),
      env: {},
      sealed: {},
    }
  }
  const shell = options.shells.find((candidate, index) => {
    if (isExecutableFile(candidate)) return true
    if (index === 0 && candidate === options.env.SHELL)
      messages.push(`$SHELL ${candidate} is not an executable file`)
    return false
  })
  if (!shell) return fallback(options, null, elapsed(), [...messages, 'no login shell found'])

  const probe = buildLoginShellProbe(shell, options.env)
  const run = options.runProbe ?? runProbeProcess
  const result = await run(
    { file: probe.file, args: probe.args },
    {
      env: probe.env,
      cwd: options.env.HOME && isDirectory(options.env.HOME) ? options.env.HOME : undefined,
      timeoutMs: options.timeoutMs ?? LOGIN_SHELL_CAPTURE_TIMEOUT_MS,
      maxOutputBytes: LOGIN_SHELL_CAPTURE_MAX_OUTPUT_BYTES,
      onOutputLimit: 'terminate',
    },
  )
  if (result.timedOut) {
    const seconds = (options.timeoutMs ?? LOGIN_SHELL_CAPTURE_TIMEOUT_MS) / 1000
    messages.push(`${shell} did not finish its startup files within ${seconds} s; it was stopped`)
    return fallback(options, shell, elapsed(), messages, 'timed_out')
  }
  const captured = parseLoginShellProbeOutput(result.stdout, probe)
  if (!captured) {
    const why = result.outputLimitReached
      ? 'printed more than 2 MiB'
      : result.spawnError
        ? `could not start (${result.spawnError.code})`
        : `exited with ${result.exitCode ?? result.exitSignal} before printing its environment`
    const detail = result.stderr.trim().split('\n').slice(-1)[0]
    messages.push(`${shell} ${why}${detail ? `: ${detail.slice(0, 200)}` : ''}`)
    return fallback(options, shell, elapsed(), messages)
  }
  const env: EnvRecord = {}
  const sealed: EnvRecord = {}
  // Sealed when Shellgate started: children get those values (they were set closer to this run),
  // so the rc files' ones are neither sealed again nor counted twice (issue 22.8).
  const sealedAtEntry = readSealedEnv(options.env)
  const overridden: string[] = []
  for (const [key, value] of Object.entries(captured)) {
    // The probe's own quieting variables come back in `env -0`; they are ours, not the user's.
    if (isProbeInjected(key, value, probe.env, options.env)) continue
    if (entryKeyFate(key) === 'seal') {
      if (!Object.hasOwn(sealedAtEntry, key)) sealed[key] = value
      else if (sealedAtEntry[key] !== value) overridden.push(key)
    } else if (key === 'PATH' || isAllowlistedLoginEnvKey(key)) env[key] = value
  }
  if (overridden.length > 0)
    messages.push(
      `your startup files set ${overridden.sort().join(', ')}, but commands get the value${overridden.length > 1 ? 's' : ''} Shellgate was started with`,
    )
  return {
    report: report('captured', shell, elapsed(), Object.keys(env), Object.keys(sealed), messages, false),
    env,
    sealed,
  }
}

function fallback(
  { env, platform }: { env: EnvRecord; platform: NodeJS.Platform },
  shell: string | null,
  durationMs: number,
  messages: string[],
  status: LoginShellCaptureStatus = 'failed',
): LoginShellEnvCapture {
  const PATH = patchPathWithoutShell(env.PATH, {
    home: env.HOME || homedir(),
    platform,
    isDirectory,
  })
  return {
    report: report(status, shell, durationMs, ['PATH'], [], messages, true),
    env: { PATH },
    sealed: {},
  }
}

function report(
  status: LoginShellCaptureStatus,
  shell: string | null,
  durationMs: number,
  keys: string[],
  sealedKeys: string[],
  messages: string[],
  pathPatched: boolean,
): LoginShellEnvReport {
  return {
    status,
    shell,
    durationMs,
    keys: keys.sort(),
    sealedKeys: sealedKeys.sort(),
    messages,
    pathPatched,
  }
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** A variable the probe set itself and the rc files left as it was, unless the parent had it too. */
function isProbeInjected(
  key: string,
  value: string,
  probeEnv: Readonly<EnvRecord>,
  parentEnv: Readonly<EnvRecord> | NodeJS.ProcessEnv,
): boolean {
  return key !== 'PATH' && probeEnv[key] === value && parentEnv[key] !== value
}
