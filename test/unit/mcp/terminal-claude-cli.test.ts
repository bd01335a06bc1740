import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  answerAgentCard,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  offline,
  realCliOrWhyNot,
  skipWithReason,
  disposedAfterEach,
} from './real-clis'
import { startTestHub } from './test-hub'

const STEPS_STAND_IN = resolve('test/fixtures/real-clis/with-fake-anthropic-steps.mjs')
const run = promisify(execFile)

const held = disposedAfterEach()
// Registered after the disposal, so it runs first (vitest runs after-hooks as a stack): tasks
// stop while their hub is still up.
afterEach(async () => {
  if (held.hub) await held.hub.host.core.tasks.stopAll('user')
})

const PROMPT = 'read -r -p "Your name? " name; echo "hello, $name"'

describe('the real Claude Code drives a terminal task through Shellgate’s MCP tools (issue 23)', () => {
  it('bash {tty} → the person allows it → task_input → task_output {since, wait_for}: its model reads the answer', {
    timeout: 400_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('claude')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    held.hub = testHub
    held.agent = await makeAgentHome('sg-claude-tty-')
    const home = held.agent.home
    const env = {
      PATH: held.agent.path,
      HOME: home,
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      CLAUDE_CONFIG_DIR: home,
      ANTHROPIC_API_KEY: 'not-a-key: the API is a local stand-in',
      ...OFFLINE_ENV,
    }
    await connectWrite('claude-code', env)
    const steps = [
      {
        tool: 'mcp__shellgate__bash',
        input: { command: PROMPT, tty: true, description: 'Ask for a name' },
        capture: { task: 'as task ([\\w-]+)' },
      },
      {
        tool: 'mcp__shellgate__task_input',
        input: { task_id: '{{task}}', text: 'Ada\n' },
        capture: { cursor: 'since (\\d+)' },
      },
      {
        tool: 'mcp__shellgate__task_output',
        input: { task_id: '{{task}}', since: '{{cursor}}', wait_for: '^hello, ' },
      },
    ]
    const resultsFile = join(home, 'results.json')
    const [bin, argv] = offline(process.execPath, [
      STEPS_STAND_IN,
      JSON.stringify(steps),
      resultsFile,
      '--',
      cli.bin,
      ...['-p', 'do the scripted steps', '--output-format', 'json', '--model', 'claude-sonnet-4-5'],
    ])
    const turn = run(bin, argv, { cwd: testHub.workspace, env, timeout: 300_000 })
    await answerAgentCard(testHub, { agent: 'claude-code', command: PROMPT }, { kind: 'allow_once' })
    await turn
    const results = JSON.parse(await readFile(resultsFile, 'utf8')) as Array<{ content: unknown }>
    const texts = results.map((result) => JSON.stringify(result.content))
    expect(texts).toHaveLength(3)
    expect(texts[0]).toContain('Your name? ')
    expect(texts[0]).toMatch(/on a terminal as task [\w-]+/)
    expect(texts[1]).toMatch(/Typed 4 bytes into task/)
    // What the model was given for the last call: the program's answer, with no terminal codes.
    expect(texts[2]).toContain('hello, Ada')
    expect(texts[2]).not.toMatch(/\\u001b|\\r/)
  })
})
