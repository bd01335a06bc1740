import type { NetworkSettings } from '../../../shared/settings'
import { type EnvRecord, toEnvRecord, writeEnv } from './env-keys'
import { applyNetworkEgressEnv, type EnvProblem } from './network-egress-env'
import { entryKeyFate, TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'
import { applyExecutionTextEnv } from './text-env'

export interface ChildEnvOptions {
  network?: NetworkSettings
  platform: NodeJS.Platform
  /** Applied last, e.g. the shell overlay (GIT_EDITOR, SHELL). */
  overlay?: Readonly<EnvRecord>
}

export interface ChildEnv {
  env: EnvRecord
  /** Settings that could not be applied, each with a message a user can act on. */
  problems: EnvProblem[]
}

/**
 * The environment a child process gets (seed 000, buildExecutionEnv): the runtime env sanitised
 * again (the runtime env may have been extended since entry), network values restored and
 * overridden, then the text settings. The parent's secrets still reach a child started this way,
 * as they would in the user's terminal; argv runs that must not see them start from an empty env.
 */
export function buildChildEnv(
  runtimeEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>,
  options: ChildEnvOptions,
): ChildEnv {
  const { platform } = options
  const source = toEnvRecord(runtimeEnv)
  const env: EnvRecord = {}
  for (const [key, value] of Object.entries(source)) {
    if (key !== TOOL_ENV_PASSTHROUGH_KEY && entryKeyFate(key) === 'keep') env[key] = value
  }
  const problems = applyNetworkEgressEnv(env, source, { network: options.network, platform })
  applyExecutionTextEnv(env, platform)
  for (const [key, value] of Object.entries(options.overlay ?? {})) writeEnv(env, key, value, platform)
  return { env, problems }
}
