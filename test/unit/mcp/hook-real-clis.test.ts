import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  answerAgentCard,
  type CardAnswer,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  realCliOrWhyNot,
  scriptedTurn,
  skipWithReason,
  disposedAfterEach,
} from './real-clis'
import { DRIVERS } from './real-cli-drivers'
import { startTestHub } from './test-hub'

const run = promisify(execFile)

const held = disposedAfterEach()

const DENY_ANY = { kind: 'deny', message: 'not this one' } as const

async function auditOf(home: string, command: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(home, 'audit.jsonl'), 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.command === command)
}

describe.each(DRIVERS)(
  'issue 20 with the real $cli, through the hook `connect --write` installs',
  (client) => {
    it('an allowed read runs in the sandbox and its output reaches the model; a secret outside is asked; Shellgate itself is denied', {
      timeout: 600_000,
    }, async (context) => {
      const cli = await realCliOrWhyNot(client.cli)
      if ('skip' in cli) return skipWithReason(context, cli.skip)
      const testHub = await startTestHub()
      held.hub = testHub
      held.agent = await makeAgentHome(`sg-${client.cli}-done-`)
      const home = held.agent.home
      const env = {
        PATH: held.agent.path,
        HOME: home,
        SHELLGATE_HOME: testHub.home,
        SHELLGATE_NO_OPEN: '1',
        // A credential the agent's own process holds: what it runs itself would see it.
        AWS_SECRET_ACCESS_KEY: 'agent-held-credential-77c0',
        ...client.env(home),
        ...OFFLINE_ENV,
      }
      await connectWrite(client.connect, env)
      await client.prepare?.(home)

      /** One headless turn whose model runs `command` with its own shell tool; the model's view back. */
      const turn = async (command: string, answer: CardAnswer | 'deny-any' | null) => {
        const resultsFile = join(home, `results-${Date.now()}.json`)
        const [bin, argv] = scriptedTurn(client.standIn, resultsFile, command, client.argv(cli.bin))
        const finished = run(bin, argv, { cwd: testHub.workspace, env, timeout: 200_000 })
        if (answer === 'deny-any') {
          // The verdict may run it at once (sandboxed) or ask; either way the person says no.
          let done = false
          void finished.finally(() => {
            done = true
          })
          while (!done) {
            const card = testHub.host.core.approvals.list()[0]
            if (card) await testHub.ui.request('approvals.answer', { id: card.id, answer: DENY_ANY })
            await Promise.race([finished.catch(() => undefined), new Promise((r) => setTimeout(r, 200))])
          }
        } else if (answer) await answerAgentCard(testHub, { agent: client.agent, command }, answer)
        await finished
        return JSON.stringify(JSON.parse(await readFile(resultsFile, 'utf8')))
      }

      // An allowed read: no card, run by Shellgate (a ticket) in the read-only sandbox.
      await writeFile(join(testHub.workspace, 'notes.txt'), 'the-output-marker-5f1c\n')
      expect(await turn('cat notes.txt', null)).toContain('the-output-marker-5f1c')
      const [read] = await auditOf(testHub.home, 'cat notes.txt')
      expect(read).toMatchObject({
        agent: client.agent,
        status: 'completed',
        sandbox: 'read-only',
        exitCode: 0,
      })

      // The first situation: grep -r printed the repository's .env and echo printed the
      // agent's credential. Run by Shellgate, the sandbox hides .env and the environment is clean.
      await writeFile(join(testHub.workspace, '.env'), 'STRIPE_KEY=sk_live_workspace_secret_41ab\n')
      await writeFile(join(testHub.workspace, 'app.js'), 'const key = process.env.STRIPE_KEY // sk_live\n')
      const grep = await turn('grep -rn sk_live .', 'deny-any')
      expect(grep).not.toContain('sk_live_workspace_secret_41ab')
      const echo = await turn('echo "key=$AWS_SECRET_ACCESS_KEY"', 'deny-any')
      expect(echo).not.toContain('agent-held-credential-77c0')

      // A secret outside the workspace read through the hook: asked; denied, the model never sees it.
      await mkdir(join(home, '.ssh'), { recursive: true })
      await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL-9d2e\n')
      const secret = `cat ${join(home, '.ssh', 'id_rsa')}`
      const refused = await turn(secret, { kind: 'deny', message: 'not my key' })
      expect(refused).not.toContain('PRIVATE-KEY-MATERIAL-9d2e')
      expect(refused).toContain('not my key')

      // Shellgate's own controls: denied by the built-in rule, no card.
      const ui = await turn('shellgate ui', null)
      expect(ui).toContain("Shellgate's own controls are not an agent's")
      const hubFile = `cat ${join(testHub.home, 'hub.json')}`
      expect(await turn(hubFile, null)).toContain("Shellgate's own controls are not an agent's")
      expect(testHub.host.core.approvals.list()).toEqual([])
    })
  },
)
