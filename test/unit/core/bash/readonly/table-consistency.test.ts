import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { HARMLESS_ENV_VARIABLES } from '../../../../../src/main/core/bash/readonly/env-allowlist'
import type { CommandPolicy } from '../../../../../src/main/core/bash/readonly/flag-types'
import { COMMAND_POLICIES } from '../../../../../src/main/core/bash/readonly/policy-tables'
import { PREFIX_POLICIES } from '../../../../../src/main/core/bash/readonly/prefix-commands'
import { REFUSED_COMMANDS } from '../../../../../src/main/core/bash/readonly/refused-commands'
import { GIT_SUBCOMMANDS } from '../../../../../src/main/core/bash/git/git-subcommands'

const KINDS = new Set([
  'none',
  'number',
  'string',
  'optionalString',
  'char',
  '{}',
  'EOF',
  'lastArgDefault',
  'file',
  'fileList',
])

function expectWellFormed(name: string, policy: CommandPolicy): void {
  for (const [flag, kind] of Object.entries(policy.flags)) {
    expect(flag, `${name} ${flag}`).toMatch(policy.plusOptions ? /^(?:--?|\+)[^-\s=]/ : /^--?[^-\s=]/)
    expect(KINDS.has(kind), `${name} ${flag} kind ${kind}`).toBe(true)
  }
  for (const flag of Object.keys(policy.refusedFlags ?? {})) {
    expect(Object.hasOwn(policy.flags, flag), `${name} ${flag} is both allowed and refused`).toBe(false)
  }
  // getopt treats aliases as one option only when the table knows both names.
  for (const group of policy.aliases ?? [])
    for (const alias of group.split(' '))
      expect(Object.hasOwn(policy.flags, alias), `${name} alias ${alias} is in the table`).toBe(true)
}

describe('policy tables', () => {
  it('never list a refused command as read-only', () => {
    expect([...COMMAND_POLICIES.keys()].filter((name) => Object.hasOwn(REFUSED_COMMANDS, name))).toEqual([])
  })

  it('hold well-formed flags of known kinds, none both allowed and refused', () => {
    for (const [name, policy] of COMMAND_POLICIES) expectWellFormed(name, policy)
    for (const [name, policy] of PREFIX_POLICIES) expectWellFormed(name, policy)
    for (const [name, policy] of GIT_SUBCOMMANDS) expectWellFormed(`git ${name}`, policy)
  })

  it('mean what they say: each harmless variable keeps ls read-only, a variable outside the list does not', () => {
    const verdict = (command: string) =>
      classifyCommand(command, { cwd: tmpdir(), platform: 'linux' }).readOnly
    for (const name of HARMLESS_ENV_VARIABLES) expect(verdict(`${name}=1 ls`), name).toBe(true)
    for (const name of ['LD_PRELOAD', 'BASH_ENV', 'GIT_DIR', 'NOT_IN_THE_TABLE'])
      expect(verdict(`${name}=1 ls`), name).toBe(false)
  })

  it('never name a program-running variable as harmless', () => {
    for (const name of [
      'PAGER',
      'GIT_PAGER',
      'EDITOR',
      'VISUAL',
      'HOME',
      'PATH',
      'LD_PRELOAD',
      'GIT_DIR',
      'GIT_CONFIG_GLOBAL',
      'LESSOPEN',
      'GIT_SSH_COMMAND',
      'GIT_EXTERNAL_DIFF',
    ]) {
      expect(HARMLESS_ENV_VARIABLES.has(name), name).toBe(false)
    }
  })
})
