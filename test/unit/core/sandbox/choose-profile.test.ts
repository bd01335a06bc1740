import { describe, expect, it } from 'vitest'
import { chooseProfile, type ProfileChoiceInput } from '../../../../src/main/core/sandbox/choose-profile'

const base: ProfileChoiceInput = {
  mode: 'auto',
  ranWithoutAsking: true,
  unsandboxedByPerson: false,
  backendAvailable: true,
  backendMessage: 'bwrap is missing',
}

describe('which profile a command runs in', () => {
  const table: [string, Partial<ProfileChoiceInput>, ReturnType<typeof chooseProfile>][] = [
    ['auto, ran without asking', {}, { kind: 'run', profile: 'read-only', warning: null }],
    [
      'auto, approved or rule-allowed',
      { ranWithoutAsking: false },
      { kind: 'run', profile: 'workspace-write', warning: null },
    ],
    [
      'strict, approved',
      { mode: 'strict', ranWithoutAsking: false },
      { kind: 'run', profile: 'workspace-write', warning: null },
    ],
    ['off', { mode: 'off' }, { kind: 'run', profile: 'off', warning: null }],
    [
      'auto, the person chose unsandboxed',
      { ranWithoutAsking: false, unsandboxedByPerson: true },
      { kind: 'run', profile: 'off', warning: null },
    ],
    [
      'auto, no backend: off with a warning',
      { backendAvailable: false },
      { kind: 'run', profile: 'off', warning: 'ran without a sandbox: bwrap is missing' },
    ],
    [
      'strict, no backend: refused',
      { mode: 'strict', backendAvailable: false },
      {
        kind: 'refuse',
        reason:
          'sandbox mode is strict and no sandbox can run here (bwrap is missing); nothing runs unsandboxed',
      },
    ],
    [
      'strict, the person chose unsandboxed: refused',
      { mode: 'strict', unsandboxedByPerson: true },
      {
        kind: 'refuse',
        reason: 'sandbox mode is strict, so nothing runs unsandboxed; approve it in its sandbox instead',
      },
    ],
  ]
  for (const [name, input, expected] of table) {
    it(name, () => expect(chooseProfile({ ...base, ...input })).toEqual(expected))
  }
})
