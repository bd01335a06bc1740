import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shellTool } from '../mcp/hook-process'
import { startTestHub, type TestHub } from '../mcp/test-hub'

/**
 * The built hook path as an agent runs it (bin/shellgate.js and out/main/hub-client-cli.cjs),
 * issue 20.6: it answers, its ticket and `exec` run from their chunks, and the hook loads nothing
 * it does not use. Node's modules that cost it milliseconds (crypto and OpenSSL, child_process,
 * fs/promises) and the other commands' chunks must stay unloaded: the bundle requires each
 * Node module at its first call, not at its top (hub-client-cli.vite.config.ts).
 */
const BIN = resolve('bin/shellgate.js')
const BUNDLE = resolve('out/main/hub-client-cli.cjs')
const UNUSED_ON_THE_HOOK_PATH = ['crypto', 'child_process', 'fs/promises', 'tty']

let hub: TestHub
let scratch: string
beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first`)
  hub = await startTestHub()
  scratch = await mkdtemp(join(tmpdir(), 'sg-bundle-'))
})
afterAll(async () => {
  await hub.dispose()
  await rm(scratch, { recursive: true, force: true })
})

/** Runs the built CLI with a preload that writes, at exit, what Node loaded. */
async function runBuilt(argv: string[], stdin: string | null) {
  const report = join(scratch, `loaded-${argv[0]}.json`)
  const preload = join(scratch, 'record-loaded.cjs')
  await writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({
      builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
      files: Object.keys(require.cache),
    })))`,
  )
  const child = spawn(process.execPath, ['--require', preload, BIN, ...argv], {
    env: hub.env,
    cwd: hub.workspace,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  child.stdin.end(stdin ?? '')
  const code = await new Promise<number | null>((done) => child.on('close', done))
  const loaded = JSON.parse(await readFile(report, 'utf8')) as { builtins: string[]; files: string[] }
  return { code, stdout, stderr, loaded }
}

describe('the built hook path (issue 20.6)', () => {
  it('allows a read with a ticket, loading only the entry and the modules it calls', async () => {
    await writeFile(join(hub.workspace, 'notes.txt'), 'bundle-notes\n')
    const hook = await runBuilt(
      ['hook', 'claude-code'],
      JSON.stringify({
        session_id: 'bundle-test',
        cwd: hub.workspace,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'cat notes.txt' },
      }),
    )
    expect(hook.code, hook.stderr).toBe(0)
    const answer = JSON.parse(hook.stdout).hookSpecificOutput
    expect(answer.permissionDecision).toBe('allow')
    expect(answer.updatedInput.command).toMatch(/ ticket sgt_/)
    for (const name of UNUSED_ON_THE_HOOK_PATH) expect(hook.loaded.builtins).not.toContain(name)
    expect(hook.loaded.files.filter((file) => !file.endsWith('record-loaded.cjs'))).toEqual([BIN, BUNDLE])

    // The ticket runs from its own chunk, with the hub's output.
    const ticket = await shellTool(answer.updatedInput.command, hub.workspace, hub.env)
    expect(ticket).toMatchObject({ code: 0, stdout: 'bundle-notes\n' })
  })

  it('exec with a hub runs from its chunk and prints the output', async () => {
    const exec = await runBuilt(['exec', '--', 'cat notes.txt'], null)
    expect(exec).toMatchObject({ code: 0, stdout: 'bundle-notes\n' })
    expect(exec.loaded.files).toContain(resolve('out/main/hub-client-exec.cjs'))
    expect(exec.loaded.builtins).not.toContain('child_process')
  })
})
