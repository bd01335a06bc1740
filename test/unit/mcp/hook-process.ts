import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { CLI_ENTRY, TSX_LOADER } from './test-hub'

const run = promisify(execFile)

/** `shellgate hook <client>` as the client runs it: its own process, the hook JSON on stdin. */
export function hookProcess(
  client: string,
  input: unknown,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, 'hook', client, ...flags], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout))
      } catch {
        reject(new Error(`hook printed no JSON: ${stdout}`))
      }
    })
    child.stdin.end(JSON.stringify(input))
  })
}

/** Runs the rewritten command as the client's shell tool would: `bash -c` in the workspace. */
export async function shellTool(command: string, cwd: string, env: Record<string, string>) {
  return run('bash', ['-c', command], { cwd, env, timeout: 15_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  )
}
