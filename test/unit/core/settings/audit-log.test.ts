import { appendFile, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditEntryInput } from '../../../../src/main/core/settings/audit-entry'
import { AUDIT_LINE_MAX_BYTES } from '../../../../src/main/core/settings/audit-line'
import { type AuditLog, createAuditLog } from '../../../../src/main/core/settings/audit-log'
import { collectFixture, spawnFixture, waitForLine } from './fixtures/run-fixture'

let home: string
let log: AuditLog

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shellgate-audit-'))
  log = createAuditLog({ home, now: () => new Date('2026-11-30T03:00:00.000Z') })
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

function entry(overrides: Partial<AuditEntryInput> = {}): AuditEntryInput {
  return {
    session: 's1',
    command: 'ls -la',
    cwd: '/work',
    shell: '/bin/bash',
    verdict: 'allow',
    decidedBy: 'read_only',
    rule: null,
    ruleFile: null,
    approvedBy: null,
    status: 'completed',
    exitCode: 0,
    durationMs: 12,
    bytes: 345,
    ...overrides,
  }
}

async function lines(): Promise<string[]> {
  return (await readFile(log.file, 'utf8')).split('\n').filter(Boolean)
}

describe('append', () => {
  it('writes one stamped JSON line per command in a 0600 file', async () => {
    const stored = await log.append(entry({ decidedBy: 'rule', rule: 'ls:*', ruleFile: '/h/settings.json' }))
    expect(stored.time).toBe('2026-11-30T03:00:00.000Z')
    expect(log.file).toBe(join(home, 'audit.jsonl'))
    expect((await stat(log.file)).mode & 0o777).toBe(0o600)
    expect((await lines()).map((line) => JSON.parse(line))).toEqual([stored])
    expect(stored).toMatchObject({ rule: 'ls:*', ruleFile: '/h/settings.json', bytes: 345 })
  })

  it('refuses an entry carrying an output body or an unknown decision', async () => {
    await expect(log.append({ ...entry(), stdout: 'secret output' } as AuditEntryInput)).rejects.toThrow(
      /stdout/,
    )
    await expect(log.append(entry({ decidedBy: 'vibes' as never }))).rejects.toThrow(/decidedBy/)
    await expect(readFile(log.file)).rejects.toThrow(/ENOENT/)
  })

  it('cuts a huge command to keep the line under PIPE_BUF and marks it', async () => {
    const command = `printf '${'é'.repeat(3_000)}"\\'`
    const stored = await log.append(entry({ command }))
    const [line] = await lines()
    expect(Buffer.byteLength(`${line}\n`)).toBeLessThanOrEqual(AUDIT_LINE_MAX_BYTES)
    expect(stored.truncated).toBe(true)
    expect(stored.command.endsWith('…')).toBe(true)
    expect(command.startsWith(stored.command.slice(0, -1))).toBe(true)
  })

  it('keeps every line whole when many appends are in flight at once', async () => {
    await Promise.all(Array.from({ length: 200 }, (_, n) => log.append(entry({ durationMs: n }))))
    const parsed = (await lines()).map((line) => JSON.parse(line) as AuditEntry)
    expect(parsed.map((e) => e.durationMs).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 200 }, (_, n) => n),
    )
  })

  it('keeps every line whole when two processes append concurrently', async () => {
    const count = 1_000
    // Both writers boot, say "ready", and only then are told to go together: no wall-clock guess.
    const writers = ['writer-a', 'writer-b'].map((name) =>
      spawnFixture('audit-appender.ts', [home, name, `${count}`], { stdin: true }),
    )
    const done = writers.map((writer) => collectFixture(writer))
    await Promise.all(writers.map((writer) => waitForLine(writer, 'ready')))
    for (const writer of writers) writer.stdin?.end('go\n')
    await Promise.all(done)
    const sessions = (await lines()).map((line) => (JSON.parse(line) as AuditEntry).session)
    expect(sessions).toHaveLength(2 * count)
    // The writers really raced: their lines alternate in the file.
    expect(sessions.filter((s, i) => i > 0 && s !== sessions[i - 1]).length).toBeGreaterThan(10)
    const page = await log.read({ limit: 10_000 })
    expect(page.skippedLines).toBe(0)
    for (const name of ['writer-a', 'writer-b']) {
      const mine = page.entries.filter((e) => e.session === name).map((e) => e.durationMs)
      expect(mine.sort((a, b) => a! - b!)).toEqual(Array.from({ length: count }, (_, n) => n))
    }
    expect(page.entries.some((e) => e.truncated)).toBe(true)
  })

  it('refuses to append through a symlink planted at the log path', async () => {
    const target = join(home, 'elsewhere.txt')
    await writeFile(target, 'untouched\n')
    await symlink(target, log.file)
    await expect(log.append(entry())).rejects.toThrow(/is a symlink, not a regular file/)
    expect(await readFile(target, 'utf8')).toBe('untouched\n')
  })

  it('tells listeners about each appended entry', async () => {
    const seen: string[] = []
    const stop = log.onAppend((e) => seen.push(e.command))
    await log.append(entry({ command: 'first' }))
    stop()
    await log.append(entry({ command: 'second' }))
    expect(seen).toEqual(['first'])
  })
})

describe('read', () => {
  beforeEach(async () => {
    await log.append(entry({ session: 's1', command: 'git status', decidedBy: 'read_only' }))
    await log.append(
      entry({ session: 's2', command: 'touch f', decidedBy: 'allowed_once', approvedBy: 'user' }),
    )
    await log.append(
      entry({
        session: 's1',
        command: 'rm -rf build',
        verdict: 'deny',
        decidedBy: 'denied_by_rule',
        status: 'denied',
        exitCode: null,
        rule: 'rm -rf:*',
      }),
    )
    await log.append(
      entry({
        session: 's1',
        command: 'npm test',
        decidedBy: 'always_allowed',
        status: 'failed',
        exitCode: 1,
      }),
    )
  })

  const commands = (page: { entries: AuditEntry[] }) => page.entries.map((e) => e.command)

  it('lists newest first', async () => {
    expect(commands(await log.read())).toEqual(['npm test', 'rm -rf build', 'touch f', 'git status'])
  })

  it('filters by session, decision, status and text, and limits', async () => {
    expect(commands(await log.read({ session: 's2' }))).toEqual(['touch f'])
    expect(commands(await log.read({ decidedBy: 'denied_by_rule' }))).toEqual(['rm -rf build'])
    expect(commands(await log.read({ status: 'failed' }))).toEqual(['npm test'])
    expect(commands(await log.read({ text: 'RM -RF' }))).toEqual(['rm -rf build'])
    expect(commands(await log.read({ session: 's1', limit: 2 }))).toEqual(['npm test', 'rm -rf build'])
  })

  it("reads lines written before issue 22 in today's words, and a filter finds them", async () => {
    const legacy = (decidedBy: string, status: string, command: string) =>
      `${JSON.stringify({ ...entry({ command }), time: new Date().toISOString(), decidedBy, status })}\n`
    await appendFile(
      log.file,
      legacy('user_always', 'completed', 'old always') +
        legacy('deny_rule', 'denied', 'old deny rule') +
        legacy('user_once', 'handed_to_agent', 'old hook') +
        legacy('user_deny', 'denied', 'old person deny'),
    )
    const page = await log.read({ limit: 4 })
    expect(page.skippedLines).toBe(0)
    expect(page.entries.map((e) => [e.command, e.decidedBy, e.status])).toEqual([
      ['old person deny', 'denied_by_person', 'denied'],
      ['old hook', 'allowed_once', 'run_by_agent'],
      ['old deny rule', 'denied_by_rule', 'denied'],
      ['old always', 'always_allowed', 'completed'],
    ])
    expect(commands(await log.read({ decidedBy: 'denied_by_rule' }))).toEqual([
      'old deny rule',
      'rm -rf build',
    ])
    expect(commands(await log.read({ status: 'run_by_agent' }))).toEqual(['old hook'])
  })

  it("writes the core's internal names as today's words", async () => {
    await log.append(entry({ command: 'internal', decidedBy: 'user_always' as never, status: 'completed' }))
    const lines = (await readFile(log.file, 'utf8')).trim().split('\n')
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ command: 'internal', decidedBy: 'always_allowed' })
  })

  it('skips and counts lines that are not entries', async () => {
    await appendFile(log.file, '{"half": \nnot json\n')
    const page = await log.read()
    expect(page.skippedLines).toBe(2)
    expect(page.entries).toHaveLength(4)
  })

  it('returns nothing for a log that does not exist yet, and refuses a bad limit', async () => {
    const empty = createAuditLog({ home: join(home, 'fresh') })
    expect(await empty.read()).toEqual({ entries: [], skippedLines: 0 })
    await expect(log.read({ limit: 0 })).rejects.toThrow(/limit must be an integer from 1 to 10000/)
  })
})
