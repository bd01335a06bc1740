import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { decideBashPermission, loadCommandRegistry } from '../../../../src/main/core/permissions'

// Issue 22.7: a card's first line says the real reason (a dynamic word, an unknown command, a
// write), never "`wait` can change files" for a command that only waits or prints.
const registry = loadCommandRegistry()
let cwd: string
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'shellgate-words-'))
})
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true })
})

function reasonOf(command: string, mode: 'build' | 'plan' = 'build') {
  const verdict = classifyCommand(command, { cwd, platform: 'linux' })
  const decision = decideBashPermission({ verdict, mode, ruleSets: [], registry })
  return { verdict, decision }
}

describe('why a command needs approval, in the verdict’s own words', () => {
  it.each([
    'sleep 1 & wait',
    'while true; do echo hi; sleep 0.2; done',
    'for i in 1 2; do echo $i; sleep 1; done &',
    'until false; do sleep 1; done',
    '(echo a; sleep 1)',
  ])('%s: no "can change files" for echo, sleep and wait', (command) => {
    const { verdict, decision } = reasonOf(command)
    expect(decision.outcome).toBe('ask')
    expect(decision.reason).not.toMatch(/can change files/)
    expect(decision.reason).not.toMatch(/this command/)
    const blamed = verdict.parts.filter((part) => !part.readOnly)
    // The blamed part's reason when there is one (`wait`), else why the line was not analysed.
    expect(decision.reason).toContain(blamed[0]?.reason ?? verdict.reason.replace(/\.$/, ''))
  })

  it.each([
    ['touch a', 'touch'],
    ['rm -rf build', 'rm'],
    ['echo hi > out.txt', '> out.txt'],
    ['cd $DIR && ls', '$DIR'],
    ['npm install', 'npm'],
    ['echo `whoami`', '`whoami`'],
  ])('%s: the reason names what is not read-only (%s)', (command, named) => {
    const { verdict, decision } = reasonOf(command)
    const part = verdict.parts.find((candidate) => !candidate.readOnly)
    expect(part).toBeDefined()
    expect(decision.reason).toBe(`Needs your approval: ${part?.reason}.`)
    expect(decision.reason).toContain(named)
  })

  it('names two reasons and counts the rest, each once', () => {
    const { decision } = reasonOf('touch a; rm b; mkdir c; touch d')
    expect(decision.reason).toMatch(/^Needs your approval: [^;]+; [^;]+; and 1 more\.$/)
    expect(decision.reason.match(/touch/g)).toHaveLength(1)
  })

  it('plan mode says the same reason', () => {
    const { verdict, decision } = reasonOf('sleep 1 & wait', 'plan')
    expect(decision.outcome).toBe('deny')
    expect(decision.reason).toBe(
      `Plan mode runs only read-only commands, and ${verdict.parts.find((p) => !p.readOnly)?.reason}.`,
    )
  })
})
