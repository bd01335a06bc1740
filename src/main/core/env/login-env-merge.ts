import { type EnvRecord, toEnvRecord, writeEnv } from './env-keys'
import type { LoginShellEnvCapture } from './login-shell-capture'
import { readSealedEnv } from './sanitize-entry'
import { TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'

/**
 * The runtime env after a login-shell capture: its PATH first (the user's terminal order), then
 * any directory only the app had; allowlisted values adopted; proxies and certificates from the rc
 * files sealed beside those from the parent, which win because they were set closer to this run.
 */
export function mergeLoginShellEnv(
  runtimeEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>,
  capture: Pick<LoginShellEnvCapture, 'env' | 'sealed'>,
  platform: NodeJS.Platform,
): EnvRecord {
  const env = toEnvRecord(runtimeEnv)
  const separator = platform === 'win32' ? ';' : ':'
  for (const [key, value] of Object.entries(capture.env)) {
    if (key === 'PATH') {
      const captured = value.split(separator).filter(Boolean)
      const extra = (env.PATH ?? '').split(separator).filter((dir) => dir && !captured.includes(dir))
      writeEnv(env, 'PATH', [...captured, ...extra].join(separator), platform)
    } else writeEnv(env, key, value, platform)
  }
  const sealed = { ...capture.sealed, ...readSealedEnv(env) }
  if (Object.keys(sealed).length > 0) env[TOOL_ENV_PASSTHROUGH_KEY] = JSON.stringify(sealed)
  return env
}
