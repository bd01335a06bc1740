import type { NetworkSettings } from '../../../shared/settings'
import { withholdCredentials } from './credential-names'
import { type EnvRecord, toEnvRecord, writeEnv } from './env-keys'
import { applyNetworkEgressEnv, type EnvProblem } from './network-egress-env'
import { entryKeyFate, TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'
import { applyExecutionTextEnv } from './text-env'

export interface ChildEnvOptions {
  network?: NetworkSettings
  platform: NodeJS.Platform
  /** Applied last, e.g. the shell overlay (GIT_EDITOR, SHELL). */
  overlay?: Readonly<EnvRecord>
  /** Credential-like names the user lets through (`environment.passThrough`); default none. */
  passThrough?: readonly string[]
}

export interface ChildEnv {
  env: EnvRecord
  /** Settings that could not be applied, each with a message a user can act on. */
  problems: EnvProblem[]
  /** Credential-like names kept from the child, sorted (names only, for reports). */
  withheldKeys: string[]
  /** Credential-like names the child got because the user passed them through, sorted. */
  passedThroughKeys: string[]
}

/**
 * The environment a child process gets (seed 000, buildExecutionEnv): the runtime env sanitised
 * again (the runtime env may have been extended since entry), network values restored and
 * overridden, then the text settings. Variables whose names look like credentials are withheld
 * (credential-names.ts) unless passed through by name; sealed proxy and certificate values are
 * restored after that step, because they are network settings the user's tools need.
 */
export function buildChildEnv(
  runtimeEnv: NodeJS.ProcessEnv | Readonly<EnvRecord>,
  options: ChildEnvOptions,
): ChildEnv {
  const { platform } = options
  const source = toEnvRecord(runtimeEnv)
  const kept: EnvRecord = {}
  for (const [key, value] of Object.entries(source)) {
    if (key !== TOOL_ENV_PASSTHROUGH_KEY && entryKeyFate(key) === 'keep') kept[key] = value
  }
  const { env, withheldKeys, passedThroughKeys } = withholdCredentials(
    kept,
    options.passThrough ?? [],
    platform,
  )
  const problems = applyNetworkEgressEnv(env, source, { network: options.network, platform })
  applyExecutionTextEnv(env, platform)
  for (const [key, value] of Object.entries(options.overlay ?? {})) writeEnv(env, key, value, platform)
  return { env, problems, withheldKeys, passedThroughKeys }
}
