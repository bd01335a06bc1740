import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const CLI = resolve('bin/shellgate.js')

export interface ServeProcess {
  /** The printed login address, `http://127.0.0.1:PORT/#code=…`: good for ONE page load. */
  url: string
  origin: string
  port: number
  /** The one-time login code in `url`'s fragment. */
  code: string
  workspace: string
  home: string
  child: ChildProcess
  stop(): Promise<number | null>
}

/** Starts the real `shellgate serve` against a temp workspace and SHELLGATE_HOME. */
export async function startServe(
  options: {
    workspace?: string
    home?: string
    port?: number
    /** No --workspace: serve runs from `workspace` as its cwd and the UI asks which folder to use. */
    askWorkspace?: boolean
    /** Extra environment for serve (on top of this process's). */
    env?: Record<string, string>
  } = {},
): Promise<ServeProcess> {
  const workspace = options.workspace ?? (await mkdtemp(join(tmpdir(), 'shellgate-e2e-ws-')))
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'shellgate-e2e-home-')))
  const workspaceArgs = options.askWorkspace ? [] : ['--workspace', workspace]
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', String(options.port ?? 0), ...workspaceArgs],
    {
      env: { ...process.env, ...options.env, SHELLGATE_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.askWorkspace ? { cwd: workspace } : {}),
    },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = ''
    const timer = setTimeout(
      () => reject(new Error(`serve printed no URL in 20 s; stderr: ${stderr}`)),
      20_000,
    )
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
      const match = /Shellgate UI: (\S+)/.exec(stdout)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}; stderr: ${stderr}`))
    })
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    code: new URLSearchParams(parsed.hash.slice(1)).get('code') ?? '',
    workspace,
    home,
    child,
    async stop() {
      if (child.exitCode !== null) return child.exitCode
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
      child.kill('SIGINT')
      return exited
    },
  }
}

export async function removeDirs(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
}
