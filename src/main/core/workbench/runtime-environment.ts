import type { z } from 'zod'
import type { EnvironmentReportSchema } from '../../../shared/ipc/domains/system'
import type { EnvRecord } from '../env/env-keys'
import { describeEnvironmentNames } from '../env/environment-names'
import { captureLoginShellEnv } from '../env/login-shell-capture'
import { mergeLoginShellEnv } from '../env/login-env-merge'

export type EnvironmentReport = z.infer<typeof EnvironmentReportSchema>

export interface RuntimeEnvironment {
  /** The runtime env commands start from: the sanitised entry env plus the login-shell capture. */
  ready(): Promise<EnvRecord>
  /** What Settings → Environment shows; `pending` until the capture settles. */
  report(): EnvironmentReport
}

/**
 * Starts the login-shell capture at once (it takes up to 4 s) so the first command rarely waits;
 * commands await it because a PATH without the user's rc additions would run the wrong tools.
 */
export function startRuntimeEnvironment(options: {
  env: EnvRecord
  platform: NodeJS.Platform
  /** False in tests and headless one-shot commands that must not run the user's rc files. */
  captureLoginShell: boolean
  /** environment.passThrough from the user settings, read at every report. */
  passThrough?: () => readonly string[]
}): RuntimeEnvironment {
  let runtimeEnv: EnvRecord = options.env
  let current: Omit<EnvironmentReport, keyof ReturnType<typeof describeEnvironmentNames>> = {
    status: 'pending',
    shell: null,
    durationMs: 0,
    keys: [],
    sealedKeys: [],
    messages: [],
    pathPatched: false,
  }
  const merged: Promise<EnvRecord> =
    options.captureLoginShell && options.platform !== 'win32'
      ? captureLoginShellEnv({ env: options.env, platform: options.platform }).then((capture) => {
          current = capture.report
          runtimeEnv = mergeLoginShellEnv(options.env, capture, options.platform)
          return runtimeEnv
        })
      : Promise.resolve(options.env).then((env) => {
          current = {
            ...current,
            status: 'skipped',
            messages: [
              options.platform === 'win32' ? 'not captured on Windows' : 'login-shell capture is off',
            ],
          }
          return env
        })
  return {
    ready: () => merged,
    report: () => ({
      ...current,
      ...describeEnvironmentNames({
        entryEnv: options.env,
        runtimeEnv,
        passThrough: options.passThrough?.() ?? [],
        platform: options.platform,
      }),
    }),
  }
}
