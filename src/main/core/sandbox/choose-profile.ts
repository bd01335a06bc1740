import type { SandboxMode } from '../../../shared/settings'
import type { SandboxProfile } from './types'

export interface ProfileChoiceInput {
  mode: SandboxMode
  /** The command runs because the policy found it read-only, nobody was asked. */
  ranWithoutAsking: boolean
  /** The person chose "run unsandboxed, this once" on the approval card. */
  unsandboxedByPerson: boolean
  /** The cached backend probe. */
  backendAvailable: boolean
  /** Why the backend is not available, for the warning or the refusal. */
  backendMessage: string
}

export type ProfileChoice =
  | { kind: 'run'; profile: SandboxProfile; warning: string | null }
  | { kind: 'refuse'; reason: string }

/**
 * Which profile a command runs in (issue 12): the verdict path picks read-only or workspace-write;
 * auto degrades to off with a warning where there is no backend, strict refuses instead. In strict
 * nothing runs unsandboxed, not even at the person's request.
 */
export function chooseProfile(input: ProfileChoiceInput): ProfileChoice {
  if (input.mode === 'off') return { kind: 'run', profile: 'off', warning: null }
  if (input.unsandboxedByPerson) {
    if (input.mode === 'strict') {
      return {
        kind: 'refuse',
        reason: 'sandbox mode is strict, so nothing runs unsandboxed; approve it in its sandbox instead',
      }
    }
    return { kind: 'run', profile: 'off', warning: null }
  }
  const profile = input.ranWithoutAsking ? 'read-only' : 'workspace-write'
  if (input.backendAvailable) return { kind: 'run', profile, warning: null }
  if (input.mode === 'strict') {
    return {
      kind: 'refuse',
      reason: `sandbox mode is strict and no sandbox can run here (${input.backendMessage}); nothing runs unsandboxed`,
    }
  }
  return {
    kind: 'run',
    profile: 'off',
    warning: `ran without a sandbox: ${input.backendMessage}`,
  }
}
