import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { codexHookTrust } from '../../../src/main/mcp/connect/codex-hook-trust'
import { type CodexAppServer, startCodexAppServer } from './codex-app-server'
import {
  type AgentHome,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  offline,
  realCliOrWhyNot,
  skipWithReason,
} from './real-clis'

// Issue 22.1: doctor and Settings → Agents say whether Codex will run Shellgate's hook, read from
// the real Codex (its app-server's hooks/list, which compares config.toml's recorded trusted_hash
// with the hook's current hash), not guessed.

let agent: AgentHome | null = null
let appServer: CodexAppServer | null = null
afterEach(async () => {
  await appServer?.close()
  appServer = null
  await agent?.dispose()
  agent = null
})

const HOOK = 'shellgate hook codex'

describe("Codex's hook trust, read from Codex", () => {
  it('untrusted after connect, trusted once /hooks records it, untrusted again when the hook changes', {
    timeout: 120_000,
  }, async (context) => {
    const codex = await realCliOrWhyNot('codex')
    if ('skip' in codex) return skipWithReason(context, codex.skip)
    agent = await makeAgentHome('sg-codex-trust-')
    const codexHome = join(agent.home, '.codex-home')
    // The `codex` the person has on PATH; here the real one, in a namespace with no network.
    const bin = join(agent.home, 'codex-bin')
    await mkdir(bin)
    const [file, args] = offline(codex.bin, [])
    await writeFile(
      join(bin, 'codex'),
      `#!/bin/sh\nexec ${[file, ...args].map((each) => `'${each}'`).join(' ')} "$@"\n`,
    )
    await chmod(join(bin, 'codex'), 0o755)
    const env = { PATH: `${bin}:${agent.path}`, HOME: agent.home, CODEX_HOME: codexHome, ...OFFLINE_ENV }
    await connectWrite('codex', env)
    const ask = (over: Record<string, string> = {}) =>
      codexHookTrust({ env: { ...env, ...over }, home: agent!.home, hook: HOOK })

    expect(await ask()).toEqual({
      ok: false,
      detail: `Codex does not run the hook until you trust it: open /hooks in Codex and trust "${HOOK}"`,
    })
    // Without a codex command, config.toml has no trust recorded for the hook's key.
    expect(await ask({ PATH: agent.path })).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^never trusted/),
    })

    // Trust it as /hooks does: Codex records the hook's current hash under its key.
    appServer = await startCodexAppServer([join(bin, 'codex'), ['app-server']], { cwd: agent.home, env })
    const listed = (await appServer.request('hooks/list', { cwds: [agent.home] })) as {
      data: Array<{ hooks: Array<{ key: string; command: string; currentHash: string }> }>
    }
    const ours = listed.data[0]!.hooks.find((hook) => hook.command === HOOK)!
    await appServer.request('config/value/write', {
      keyPath: 'hooks.state',
      value: { [ours.key]: { trusted_hash: ours.currentHash } },
      mergeStrategy: 'upsert',
    })
    await appServer.close()
    appServer = null
    expect(await readFile(join(codexHome, 'config.toml'), 'utf8')).toContain(
      `trusted_hash = "${ours.currentHash}"`,
    )

    expect(await ask()).toEqual({ ok: true, detail: 'Codex trusts the hook (/hooks)' })
    // Without codex, the record is there but only Codex can say it still matches.
    expect(await ask({ PATH: agent.path })).toMatchObject({ ok: null })

    // A changed hook (another timeout) no longer matches the hash: Codex would skip it.
    const hooksFile = join(codexHome, 'hooks.json')
    await writeFile(
      hooksFile,
      (await readFile(hooksFile, 'utf8')).replace('"timeout": 600', '"timeout": 599'),
    )
    expect(await ask()).toEqual({
      ok: false,
      detail: `the hook changed since you trusted it, so Codex does not run it: open /hooks in Codex and trust "${HOOK}"`,
    })
  })
})
