import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cp, mkdir, symlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The comment in README.md that marks the quick start's command block for the test. */
export const QUICK_START_MARKER = '<!-- quick-start:'
/** The README's stand-in for "wherever you cloned from": replaced by this checkout. */
const REPOSITORY_PLACEHOLDER = '<this repository>'
/** One README step (a clone, a link, a connect) takes seconds; a minute means it hangs. */
const STEP_TIMEOUT_MS = 60_000

/**
 * The commands of the quick start's sh block, in order, as a person types them: comments dropped,
 * `a && b` split into its steps. Throws when the marker or its block is gone, so a README that
 * loses its quick start fails the test rather than passing on nothing.
 */
export function quickStartCommands(readme: string): string[] {
  const at = readme.indexOf(QUICK_START_MARKER)
  if (at < 0) throw new Error(`README.md has no ${QUICK_START_MARKER} … --> marker above its quick start`)
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))
  if (!block?.[1]) throw new Error('README.md: no ```sh block follows the quick-start marker')
  return block[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.split('&&').map((step) => step.trim()))
}

export interface FreshMachine {
  root: string
  home: string
  /** npm's global prefix on that machine: empty until `npm link` fills it. */
  npmPrefix: string
  env: Record<string, string>
}

/**
 * A fresh machine, approximated: an empty HOME, an empty npm global prefix whose bin folder is on
 * PATH (as npm's is wherever it is set up), Claude Code "installed from npm" (its bin on PATH), and
 * no SHELL, TERM or LANG (as CI starts). Claude Code is kept offline by its own switches.
 */
export async function freshMachine(root: string, claudeBinDir: string): Promise<FreshMachine> {
  const home = join(root, 'home')
  const npmPrefix = join(root, 'npm-global')
  await mkdir(home, { recursive: true })
  await mkdir(join(npmPrefix, 'bin'), { recursive: true })
  const env = {
    HOME: home,
    PATH: [
      join(npmPrefix, 'bin'),
      resolve(process.execPath, '..'),
      claudeBinDir,
      '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ].join(':'),
    npm_config_prefix: npmPrefix,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // `npm link` runs the package's prepare script, the same build `npm install` made; that build
    // is copied from this checkout (see runQuickStart), so it is not made a third time.
    npm_config_ignore_scripts: 'true',
    CLAUDE_CONFIG_DIR: join(home, '.claude-test-config'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // xdg-open's own setting: `--open` hands the address to this no-op instead of a desktop
    // browser, which would spend the one-time login code the test's Chromium needs.
    BROWSER: '/bin/true',
  }
  return { root, home, npmPrefix, env }
}

export interface StepResult {
  command: string
  output: string
}

export interface QuickStartRun {
  results: StepResult[]
  /** The one long-running step (`npm start`), still running, and what it printed so far. */
  app: { command: string; child: ChildProcess; output: () => string } | null
}

/**
 * Runs the README's commands in order. Two are approximated, and only these: the clone comes from
 * this checkout (the README's placeholder), and `npm install` links this checkout's node_modules
 * into the clone and copies its build (out/) instead of downloading and building them again
 * (minutes; `npm ci` and the build already ran for this suite). Copied, not linked: nothing the
 * steps do may write into this checkout. Every other command runs as written through bash, and
 * must exit 0; `npm start` is left running until `/Shellgate UI: …#code=/` is printed.
 */
export async function runQuickStart(machine: FreshMachine, checkout: string): Promise<QuickStartRun> {
  const results: StepResult[] = []
  let cwd = machine.root
  let app: QuickStartRun['app'] = null
  const readme = readFileSync(join(checkout, 'README.md'), 'utf8')
  for (const command of quickStartCommands(readme)) {
    const clone = /^git clone (\S.*?) (\S+)$/.exec(command)
    const cd = /^cd (\S+)$/.exec(command)
    if (clone && clone[1] === REPOSITORY_PLACEHOLDER) {
      const target = resolve(cwd, clone[2] as string)
      await run('git', ['clone', '--quiet', checkout, target], { env: machine.env, timeout: STEP_TIMEOUT_MS })
      results.push({ command, output: '' })
    } else if (cd) {
      cwd = resolve(cwd, cd[1] as string)
    } else if (command === 'npm install') {
      await symlink(join(checkout, 'node_modules'), join(cwd, 'node_modules'))
      await cp(join(checkout, 'out'), join(cwd, 'out'), { recursive: true })
      results.push({ command, output: '' })
    } else if (command === 'npm start') {
      app = await startLongRunning(command, cwd, machine.env)
    } else {
      const done = await run('bash', ['-c', command], {
        cwd,
        env: machine.env,
        timeout: STEP_TIMEOUT_MS,
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(
          `README step \`${command}\` failed: ${error.message}\n${error.stdout}\n${error.stderr}`,
        )
      })
      results.push({ command, output: `${done.stdout}${done.stderr}` })
    }
  }
  return { results, app }
}

/** Its own process group, so stopping it is Ctrl+C in the terminal it was typed into. */
async function startLongRunning(command: string, cwd: string, env: Record<string, string>) {
  const child = spawn('bash', ['-c', command], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`\`${command}\` printed no login address:\n${output}`)),
      STEP_TIMEOUT_MS,
    )
    const check = () => {
      if (!/Shellgate UI: \S+#code=\S+/.test(output)) return
      clearTimeout(timer)
      ready()
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`\`${command}\` exited with ${code}:\n${output}`))
    })
  })
  return { command, child, output: () => output }
}

/** Ctrl+C to the step's process group; true when the whole group is gone after it, with no kill. */
export async function interrupt(child: ChildProcess): Promise<boolean> {
  const group = child.pid as number
  const exited = child.exitCode !== null ? Promise.resolve() : new Promise((done) => child.once('exit', done))
  process.kill(-group, 'SIGINT')
  await exited
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (!groupAlive(group)) return true
    await new Promise((tick) => setTimeout(tick, 100))
  }
  process.kill(-group, 'SIGKILL')
  return false
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0)
    return true
  } catch {
    return false
  }
}
