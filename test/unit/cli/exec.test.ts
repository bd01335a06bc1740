import { execFile } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspaceTrust } from '../../../src/main/core/permissions/workspace-trust'
import { runCliCaptured } from './run-cli'

/** The killed commands would write `late` this long after `started` (issue 15.16). */
const LATE_AFTER_S = 2

async function waitForFile(path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await exists(path))) {
    if (Date.now() > deadline) throw new Error(`${path} never appeared`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * "It did not write the marker" means something only after the moment it would have: the command
 * touches `started`, then would touch `late` LATE_AFTER_S later. A real `sleep` of that length plus
 * a margin, started once `started` exists, ends past that moment.
 */
async function waitPastLateMarker(ws: string): Promise<void> {
  await waitForFile(join(ws, 'started'))
  await promisify(execFile)('sleep', [String(LATE_AFTER_S + 0.5)])
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  )

describe('shellgate exec', () => {
  let root: string
  let home: string
  let env: NodeJS.ProcessEnv
  let n = 0
  /** A fresh workspace per test, so rules and files never leak between cases. */
  /** `trusted`: the user has accepted the workspace's allow rules (a repository's own start untrusted). */
  const workspace = async (
    rules?: { allow?: string[]; ask?: string[]; deny?: string[] },
    options: { trusted?: boolean } = {},
  ) => {
    n += 1
    const dir = join(root, `ws${n}`)
    await mkdir(join(dir, '.shellgate'), { recursive: true })
    const file = join(dir, '.shellgate', 'settings.json')
    if (rules) await writeFile(file, JSON.stringify({ permissions: rules }))
    if (options.trusted) await (await loadWorkspaceTrust(home)).trust(dir, rules?.allow ?? [])
    return dir
  }
  const exec = async (argv: string[]) => {
    const outcome = await runCliCaptured(['exec', ...argv], { env, cwd: root })
    return { ...outcome, json: outcome.stdout.startsWith('{') ? JSON.parse(outcome.stdout) : null }
  }

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-exec-')))
    home = join(root, 'home')
    await mkdir(home)
    env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, SHELLGATE_HOME: home, SHELL: '/bin/bash' }
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('a read-only command runs at once, with the DESIGN.md JSON shape', async () => {
    const ws = await workspace()
    const { code, json } = await exec(['--json', '--cwd', ws, '--', 'echo hello'])
    expect(code).toBe(0)
    expect(json).toMatchObject({
      status: 'completed',
      exitCode: 0,
      exitSignal: null,
      stdout: 'hello\n',
      stderr: '',
      truncated: false,
      isError: false,
      content: 'hello',
      decision: { outcome: 'allow', decidedBy: 'mode.build.readOnly', rule: null, ruleFile: null },
    })
    expect(typeof json.durationMs).toBe('number')
    expect(json.outputPath).toBeUndefined()
  })

  it('a command that needs approval is not run when no Shellgate is running to ask, and the decision says why', async () => {
    const ws = await workspace()
    const { code, json } = await exec(['--json', '--cwd', ws, '--', 'touch made'])
    expect(code).toBe(126)
    expect(await exists(join(ws, 'made'))).toBe(false)
    expect(json).toMatchObject({
      status: 'approval_required',
      exitCode: null,
      decision: { outcome: 'ask', decidedBy: 'mode.build.highRisk', suggestedRules: ['touch:*'] },
    })
    expect(json.decision.reason).toContain('Shellgate is not running')
    // exec never approves anything itself: the flag that did is gone.
    const flag = await exec(['--json', '--approve', '--cwd', ws, '--', 'touch made'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain("Unknown option '--approve'")
    expect(await exists(join(ws, 'made'))).toBe(false)
  })

  it('a workspace allow rule runs it, naming the rule and its file', async () => {
    const ws = await workspace({ allow: ['touch:*'] }, { trusted: true })
    const { code, json } = await exec(['--json', '--cwd', ws, '--', 'touch by-rule'])
    expect(code).toBe(0)
    expect(json.decision).toMatchObject({
      outcome: 'allow',
      decidedBy: 'rule.allow',
      rule: 'touch:*',
      ruleFile: join(ws, '.shellgate', 'settings.json'),
    })
    expect(await exists(join(ws, 'by-rule'))).toBe(true)
  })

  it('plan mode denies a writer even with an allow rule, and says which rule almost applied', async () => {
    const ws = await workspace({ allow: ['touch:*'] }, { trusted: true })
    const { code, json } = await exec(['--json', '--mode', 'plan', '--cwd', ws, '--', 'touch planned'])
    expect(code).toBe(126)
    expect(json).toMatchObject({
      status: 'denied',
      decision: { outcome: 'deny', decidedBy: 'mode.plan.nonReadOnly' },
    })
    expect(json.decision.nearMiss).toMatchObject({ rule: 'touch:*', relation: 'plan_mode' })
    expect(await exists(join(ws, 'planned'))).toBe(false)
  })

  it('a deny rule stops the command in yolo mode', async () => {
    const ws = await workspace({ deny: ['touch:*'] })
    const { code, json } = await exec([
      '--json',
      '--mode',
      'yolo',
      '--cwd',
      ws,
      '--',
      'echo x && touch denied',
    ])
    expect(code).toBe(126)
    expect(json.decision).toMatchObject({ outcome: 'deny', decidedBy: 'rule.deny', rule: 'touch:*' })
    expect(await exists(join(ws, 'denied'))).toBe(false)
  })

  it('yolo runs a writer without asking', async () => {
    const ws = await workspace()
    const { code, json } = await exec(['--json', '--mode', 'yolo', '--cwd', ws, '--', 'touch yolo'])
    expect(code).toBe(0)
    expect(json.decision.decidedBy).toBe('mode.yolo')
    expect(await exists(join(ws, 'yolo'))).toBe(true)
  })

  it('withholds credential-like variables unless settings.json passes them through (issue 12.4)', async () => {
    const ws = await workspace()
    const secrets = { GH_TOKEN: 'gh-cli-value', OPENAI_API_KEY: 'openai-cli-value' }
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions
    const print = 'printf "%s|%s" "${GH_TOKEN-unset}" "${OPENAI_API_KEY-unset}"'
    const run = () =>
      runCliCaptured(['exec', '--json', '--mode', 'yolo', '--cwd', ws, '--', print], {
        env: { ...env, ...secrets },
        cwd: root,
      })
    expect(JSON.parse((await run()).stdout).stdout).toBe('unset|unset')
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ environment: { passThrough: ['GH_TOKEN'] } }),
    )
    try {
      expect(JSON.parse((await run()).stdout).stdout).toBe('gh-cli-value|unset')
    } finally {
      await rm(join(home, 'settings.json'), { force: true })
    }
  })

  it("a read-only command run without asking gets no GIT_CONFIG_* of the parent's, so git runs no program (issue 12.4)", async () => {
    const ws = await workspace()
    await promisify(execFile)('git', ['init', '-q', ws])
    const hostile = {
      ...env,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: 'touch fsmonitor-ran; false',
    }
    const readOnly = await runCliCaptured(['exec', '--json', '--cwd', ws, '--', 'git status --porcelain'], {
      env: hostile,
      cwd: root,
    })
    expect(JSON.parse(readOnly.stdout)).toMatchObject({
      status: 'completed',
      decision: { decidedBy: 'mode.build.readOnly' },
    })
    expect(await exists(join(ws, 'fsmonitor-ran'))).toBe(false)
    // Allowed by the mode, not run as read-only, the same git keeps the user's environment: the
    // override is what stopped it above.
    await runCliCaptured(
      ['exec', '--json', '--mode', 'yolo', '--cwd', ws, '--', 'git status --porcelain; touch wrote'],
      {
        env: hostile,
        cwd: root,
      },
    )
    expect(await exists(join(ws, 'fsmonitor-ran'))).toBe(true)
  })

  it("a failing command's exit code is the CLI's, with Exit code N in the content", async () => {
    const ws = await workspace()
    const { code, json } = await exec(['--json', '--mode', 'yolo', '--cwd', ws, '--', 'echo bad; exit 7'])
    expect(code).toBe(7)
    expect(json).toMatchObject({ status: 'failed', exitCode: 7, isError: true, content: 'Exit code 7\nbad' })
  })

  it('--timeout ends the command and the tree', async () => {
    const ws = await workspace()
    const { code, json } = await exec([
      '--json',
      '--mode',
      'yolo',
      '--timeout',
      '1000',
      '--cwd',
      ws,
      '--',
      `touch started; sleep ${LATE_AFTER_S}; touch late`,
    ])
    // seed 000: Bash file mode settles a timeout at once with 143 (TERM), and so does the CLI.
    expect(code).toBe(143)
    expect(json).toMatchObject({ status: 'timed_out', exitCode: 143 })
    expect(json.content).toContain('timed out')
    await waitPastLateMarker(ws)
    expect(await exists(join(ws, 'late'))).toBe(false)
  })

  it('output over the inline limit is kept in a file and flagged', async () => {
    const ws = await workspace()
    const { json } = await exec(['--json', '--mode', 'yolo', '--cwd', ws, '--', 'seq 1 20000'])
    expect(json.truncated).toBe(true)
    expect(json.outputPath).toContain(join(home, 'exec', 'bash-output'))
    expect(Buffer.byteLength(json.stdout)).toBeLessThanOrEqual(30_000)
    expect((await readFile(json.outputPath, 'utf8')).endsWith('20000\n')).toBe(true)
    expect(json.content).toContain('<persisted-output>')
  })

  it('--background prints the task at once, keeps the output file, and returns when the task ends', async () => {
    const ws = await workspace()
    const { code, json } = await exec([
      '--json',
      '--background',
      '--mode',
      'yolo',
      '--cwd',
      ws,
      '--',
      'sleep 0.2; echo done; touch bg-made',
    ])
    expect(code).toBe(0)
    expect(json).toMatchObject({ status: 'backgrounded', exitCode: null, decision: { outcome: 'allow' } })
    expect(json.taskId).toMatch(/\S/)
    expect(await readFile(json.outputPath, 'utf8')).toBe('done\n')
    expect(await exists(join(ws, 'bg-made'))).toBe(true)
  })

  it('--background: Ctrl+C stops the task and its tree', async () => {
    const ws = await workspace()
    const controller = new AbortController()
    const pending = runCliCaptured(
      [
        'exec',
        '--json',
        '--background',
        '--mode',
        'yolo',
        '--cwd',
        ws,
        '--',
        `touch started; sleep ${LATE_AFTER_S}; touch late`,
      ],
      {
        env,
        cwd: root,
        signal: controller.signal,
      },
    )
    await waitForFile(join(ws, 'started'))
    controller.abort(new Error('SIGINT'))
    const { code, stdout } = await pending
    expect(JSON.parse(stdout).status).toBe('backgrounded')
    expect(code).not.toBe(0)
    await waitPastLateMarker(ws)
    expect(await exists(join(ws, 'late'))).toBe(false)
  })

  it('--background still needs approval first', async () => {
    const ws = await workspace()
    const { code, json } = await exec(['--json', '--background', '--cwd', ws, '--', 'touch never'])
    expect(code).toBe(126)
    expect(json.status).toBe('approval_required')
    expect(await exists(join(ws, 'never'))).toBe(false)
  })

  it('without --json: the output on stdout, the refusal on stderr', async () => {
    const ws = await workspace()
    const ran = await exec(['--cwd', ws, '--', 'echo plain'])
    expect(ran).toMatchObject({ code: 0, stdout: 'plain\n' })
    const refused = await exec(['--cwd', ws, '--', 'touch nope'])
    expect(refused.code).toBe(126)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('shellgate exec: not run (ask)')
    expect(refused.stderr).toContain('start Shellgate (the app, or `shellgate serve`) and run it again')
    expect(refused.stderr).toContain('touch:*')
  })

  it('an unusable settings file refuses the run instead of dropping its deny rules', async () => {
    const ws = await workspace()
    await writeFile(join(ws, '.shellgate', 'settings.json'), '{"permissions": {"deny": 5}}')
    // Every time: the file is neither moved aside nor rewritten, so the second run refuses too.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { code, stderr } = await exec(['--json', '--mode', 'yolo', '--cwd', ws, '--', 'touch x'])
      expect(code).toBe(2)
      expect(stderr).toContain('is unusable (does not match the settings schema: permissions.deny: ')
      expect(await exists(join(ws, 'x'))).toBe(false)
    }
    expect(await readFile(join(ws, '.shellgate', 'settings.json'), 'utf8')).toBe(
      '{"permissions": {"deny": 5}}',
    )
  })

  it.each([
    [['--json'], 'missing <command>'],
    [['--', ''], 'the command is empty'],
    [['--mode', 'fast', '--', 'ls'], '--mode must be build, plan or yolo'],
    [['--timeout', 'soon', '--', 'ls'], '--timeout must be a whole number'],
    [['--cwd', '/definitely/not/here', '--', 'ls'], 'does not exist'],
    [['--background', '--timeout', '5', '--', 'ls'], '--timeout does not apply to --background'],
    [['--frobnicate', '--', 'ls'], '--frobnicate'],
  ])('%j → exit 2, one line: %s', async (argv, message) => {
    const { code, stdout, stderr } = await exec(argv)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain(message)
  })

  it('writes one audit line per command, run or not, never its output', async () => {
    const ws = await workspace()
    await exec(['--json', '--cwd', ws, '--', 'echo audited-output'])
    await exec(['--json', '--cwd', ws, '--', 'touch audit-refused'])
    const lines = (await readFile(join(home, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const mine = lines.filter((line) => line.cwd === ws)
    expect(
      mine.map((line) => [line.command, line.verdict, line.decidedBy, line.status, line.approvedBy]),
    ).toEqual([
      ['echo audited-output', 'allow', 'read_only', 'completed', null],
      ['touch audit-refused', 'deny', 'cancelled', 'denied', null],
    ])
    expect(mine[0].bytes).toBe('audited-output\n'.length)
    expect(JSON.stringify(lines)).not.toContain('audited-output\\n')
  })
})

describe('shellgate exec as a real process (npx tsx src/main/cli.ts)', () => {
  const repo = resolve(import.meta.dirname, '..', '..', '..')
  let root: string
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-exec-bin-')))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  const cli = async (argv: string[]) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, SHELLGATE_HOME: join(root, 'home') }
    try {
      const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/main/cli.ts', ...argv], {
        cwd: repo,
        env,
      })
      return { code: 0, stdout }
    } catch (error) {
      const failed = error as { code: number; stdout: string }
      return { code: failed.code, stdout: failed.stdout }
    }
  }

  it('writes a file in the temp dir only when the mode allows it', async () => {
    const target = join(root, 'written.txt')
    const refused = await cli(['exec', '--json', '--cwd', root, '--', 'echo data > written.txt'])
    expect(refused.code).toBe(126)
    expect(JSON.parse(refused.stdout)).toMatchObject({
      status: 'approval_required',
      decision: { outcome: 'ask' },
    })
    expect(await exists(target)).toBe(false)

    const approved = await cli([
      'exec',
      '--json',
      '--mode',
      'yolo',
      '--cwd',
      root,
      '--',
      'echo data > written.txt',
    ])
    expect(approved.code).toBe(0)
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'completed', exitCode: 0 })
    expect(await readFile(target, 'utf8')).toBe('data\n')
  })
})
