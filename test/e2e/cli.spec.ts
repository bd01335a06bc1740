import { execFile, spawn, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { findElectronBinary } from '../../scripts/electron-binary'
import { startHttpsServer } from '../fixtures/network/http-server'
import { generateTestCertificates } from '../fixtures/network/tls-cert'
import { removeDirs } from './support/browser-mode-server'

const execFileText = promisify(execFile)
const version = JSON.parse(await readFile('package.json', 'utf8')).version

// These run after `npm run build`, as a newcomer would after `npm install`.
test('`npx shellgate --help` and `--version` work from the checkout', () => {
  const help = spawnSync('npx', ['--no-install', 'shellgate', '--help'], { encoding: 'utf8' })
  expect(help.status).toBe(0)
  expect(help.stdout).toContain('Usage: shellgate <command>')
  for (const command of ['classify', 'run', 'exec', 'env', 'shells', 'net', 'serve']) {
    expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'))
  }
  const versionRun = spawnSync('npx', ['--no-install', 'shellgate', '--version'], { encoding: 'utf8' })
  expect(versionRun.stdout.trim()).toBe(version)
})

test('`npm start` without the Electron binary says so in one line and serves browser mode until Ctrl+C', async () => {
  test.skip(
    findElectronBinary(process.cwd()).found,
    'the Electron binary is installed here, so npm start opens the app',
  )
  const home = await mkdtemp(join(tmpdir(), 'shellgate-start-'))
  // BROWSER=true: where xdg-open exists it "opens" the URL with /bin/true instead of a real browser.
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, SHELLGATE_HOME: home, BROWSER: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let stdout = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  try {
    await expect
      .poll(() => stdout, { timeout: 30_000 })
      .toMatch(/Shellgate UI: http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{43}\n/)
    const notice = stdout.split('\n').filter((line) => line.includes('Electron'))
    expect(notice).toHaveLength(1)
    expect(notice[0]).toContain('starting browser mode instead')
    const url = /Shellgate UI: (\S+)/.exec(stdout)?.[1] ?? ''
    // The code is in the fragment, which fetch (like a browser) never sends: the page itself is public.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(200)
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => resolve(`${code}/${signal}`)),
    )
    let stderr = ''
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    // Ctrl+C reaches the whole foreground process group; npm itself dies of it, serve stops cleanly.
    process.kill(-(child.pid ?? 0), 'SIGINT')
    expect(await exited).toMatch(/^(0\/null|null\/SIGINT)$/)
    await expect.poll(() => stderr).toContain('Shellgate UI stopped.')
    await expect(fetch(url)).rejects.toThrow()
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL')
    await removeDirs(home)
  }
})

test("the app's own HTTP never trusts the user's NODE_EXTRA_CA_CERTS, only its own CA setting", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'shellgate-ca-'))
  const certificates = generateTestCertificates(dir)
  const server = await startHttpsServer(certificates, (_request, response) => response.end('hello'))
  try {
    // Asynchronous on purpose: the HTTPS server lives in this process and must keep answering.
    const fetchWith = async (extraEnv: Record<string, string>) => {
      const run = await execFileText(
        'node',
        ['bin/shellgate.js', 'net', 'fetch', `${server.origin}/`, '--json'],
        {
          env: { PATH: process.env.PATH, HOME: dir, SHELLGATE_HOME: dir, ...extraEnv },
        },
      ).catch((failure: { stdout: string }) => failure)
      return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { status: string; reason?: string }
    }
    // Node reads NODE_EXTRA_CA_CERTS as it starts; the launcher re-starts with it sealed away.
    const userCa = await fetchWith({ NODE_EXTRA_CA_CERTS: certificates.caFile })
    expect(userCa.status).toBe('error')
    expect(userCa.reason).toMatch(/certificate|self.signed|verify/i)
    expect((await fetchWith({ SHELLGATE_CA_CERT: certificates.caFile })).status).toBe('ok')
  } finally {
    await server.close()
    await removeDirs(dir)
  }
})
