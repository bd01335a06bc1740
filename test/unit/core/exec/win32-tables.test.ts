import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import {
  decodeWindowsOutput,
  resolveWindowsOutputEncoding,
} from '../../../../src/main/core/exec/output-encoding'
import { quoteCmdArgument } from '../../../../src/main/core/exec/windows-cmd-line'
import { deleteEnvValue, setEnvValue } from '../../../../src/main/core/exec/windows-env'
import { resolveWindowsExecutable } from '../../../../src/main/core/exec/windows-executable'
import { recordingSpawn } from './win32-fake-child'

const EXISTING = new Set([
  'C:\\tools\\git.EXE',
  'C:\\bin\\npm.cmd',
  'C:\\bin\\git.exe',
  'C:\\repo\\scripts\\build.BAT',
  'C:\\bin\\tool',
])
// Windows filesystems are case-insensitive; the candidate keeps PATHEXT's casing.
const EXISTING_LOWER = new Set([...EXISTING].map((path) => path.toLowerCase()))
const isFile = (path: string) => EXISTING_LOWER.has(path.toLowerCase())
const WIN_ENV = {
  Path: 'C:\\tools;"C:\\bin"',
  ComSpec: 'C:\\Windows\\System32\\cmd.exe',
  SystemRoot: 'C:\\Windows',
}

describe('win32 executable resolution (PATH + PATHEXT)', () => {
  it.each([
    ['git', 'C:\\tools\\git.EXE'], // first PATH entry wins; PATHEXT order .COM;.EXE;.BAT;.CMD
    ['npm', 'C:\\bin\\npm.CMD'],
    ['git.exe', 'C:\\tools\\git.exe'], // an extension is not extended again; first PATH entry wins
    ['tool', 'C:\\bin\\tool'],
    ['.\\scripts\\build', 'C:\\repo\\scripts\\build.BAT'], // a path is resolved against the cwd
    ['missing', null],
  ])('%s → %s', (file, expected) => {
    expect(resolveWindowsExecutable(file, WIN_ENV, 'C:\\repo', isFile)).toBe(expected)
  })

  it('honours a PATHEXT from the env, whatever its case', () => {
    expect(resolveWindowsExecutable('npm', { PATH: 'C:\\bin', pathext: '.CMD' }, 'C:\\', isFile)).toBe(
      'C:\\bin\\npm.CMD',
    )
  })
})

describe('cmd.exe quoting', () => {
  // Every metacharacter gets a caret, the quotes too, so cmd.exe never enters a quoted state in
  // which `&`, `|` or `%` would act; MSVCRT backslash rules apply first (the cross-spawn scheme).
  it.each([
    ['plain', '^"plain^"'],
    ['', '^"^"'],
    ['with space', '^"with^ space^"'],
    ['a&b', '^"a^&b^"'],
    ['100%', '^"100^%^"'],
    ['say "hi"', '^"say^ \\^"hi\\^"^"'],
    ['(x)|<y>^', '^"^(x^)^|^<y^>^^^"'],
    ['C:\\dir\\', '^"C:\\dir\\\\^"'],
    ['https://h/?a=1&b=2', '^"https://h/^?a=1^&b=2^"'],
  ])('%j → %s', (argument, quoted) => {
    expect(quoteCmdArgument(argument)).toBe(quoted)
  })

  it('doubles the carets for npm-style shims, which pass %* through cmd.exe once more', () => {
    expect(quoteCmdArgument('a&b', true)).toBe('^^^"a^^^&b^^^"')
  })
})

describe('win32 spawn calls', () => {
  function winPort(behaviour?: Parameters<typeof recordingSpawn>[0], hostEnv?: Record<string, string>) {
    const recorder = recordingSpawn(behaviour)
    const port = createExecutionPort({
      ...(hostEnv ? { hostEnv } : {}),
      platform: 'win32',
      spawnFile: recorder.spawnFile,
      isFile,
      chcp: async () => '65001',
      locale: 'en-US',
    })
    return { port, calls: recorder.calls }
  }

  it('an .exe is spawned directly, without a shell, hidden, not detached', async () => {
    const { port, calls } = winPort()
    const result = await port.execute({
      command: { mode: 'argv', file: 'git', args: ['status', 'a b'] },
      cwd: '/',
      env: WIN_ENV,
    })
    expect(result.status).toBe('completed')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      file: 'C:\\tools\\git.EXE',
      args: ['status', 'a b'],
      options: {
        detached: false,
        windowsHide: true,
        windowsVerbatimArguments: false,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    })
    expect(calls[0]!.options.env).toMatchObject({ ...WIN_ENV, SHELLGATE_RUN_ID: result.runId })
  })

  it('a .cmd runs through ComSpec /d /s /c with every argument quoted and escaped', async () => {
    const { port, calls } = winPort()
    await port.execute({
      command: { mode: 'argv', file: 'npm', args: ['run', 'a b', 'x&y', '50%'] },
      cwd: '/',
      env: WIN_ENV,
    })
    expect(calls[0]).toMatchObject({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: ['/d', '/s', '/c', '"C:\\bin\\npm.CMD ^"run^" ^"a^ b^" ^"x^&y^" ^"50^%^""'],
      options: { windowsVerbatimArguments: true, windowsHide: true },
    })
  })

  it('a shell command without a shell goes to ComSpec', async () => {
    const { port, calls } = winPort()
    await port.execute({ command: { mode: 'shell', command: 'dir /b & echo done' }, cwd: '/', env: WIN_ENV })
    expect(calls[0]).toMatchObject({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: ['/d', '/s', '/c', '"dir /b & echo done"'],
      options: { windowsVerbatimArguments: true },
    })
  })

  it('Git Bash as the shell gets -c', async () => {
    const { port, calls } = winPort()
    await port.execute({
      command: { mode: 'shell', command: 'ls', shell: 'C:\\Program Files\\Git\\bin\\bash.exe' },
      cwd: '/',
      env: WIN_ENV,
    })
    expect(calls[0]).toMatchObject({ file: 'C:\\Program Files\\Git\\bin\\bash.exe', args: ['-c', 'ls'] })
  })

  it("cancel kills the tree with taskkill /T /F resolved from the host's SystemRoot, not the child's env", async () => {
    const { port, calls } = winPort({ hang: true }, { SystemRoot: 'D:\\Win' })
    const controller = new AbortController()
    const pending = port.execute({
      command: { mode: 'argv', file: 'git', args: [] },
      cwd: '/',
      env: WIN_ENV,
      signal: controller.signal,
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ status: 'cancelled', exitCode: null })
    expect(calls[1]).toMatchObject({
      file: 'D:\\Win\\System32\\taskkill.exe',
      args: ['/pid', '4242', '/T', '/F'],
      options: { windowsHide: true },
    })
  })

  it('a kill requested 5 s ago with no exit settles as SIGKILL', async () => {
    const { port } = winPort({ hang: true, unkillable: true })
    const result = await port.execute({
      command: { mode: 'argv', file: 'git', args: [] },
      cwd: '/',
      env: WIN_ENV,
      timeoutMs: 50,
    })
    expect(result).toMatchObject({ status: 'timed_out', exitCode: null, exitSignal: 'SIGKILL' })
    expect(result.timings.terminationWaitMs).not.toBeNull()
  }, 15_000)

  it('env keys are case-insensitive: one run tag, whatever case the caller used', async () => {
    const { port, calls } = winPort()
    await port.execute({
      command: { mode: 'argv', file: 'git', args: [] },
      cwd: '/',
      env: { ...WIN_ENV, shellgate_run_id: 'forged' },
    })
    const keys = Object.keys(calls[0]!.options.env!).filter((key) => key.toLowerCase() === 'shellgate_run_id')
    expect(keys).toEqual(['SHELLGATE_RUN_ID'])
  })

  it('setEnvValue and deleteEnvValue treat differently-cased names as one on win32 only', () => {
    expect(setEnvValue({ Path: 'a', PATH: 'b' }, 'path', 'c', 'win32')).toEqual({ path: 'c' })
    expect(setEnvValue({ Path: 'a' }, 'PATH', 'c', 'linux')).toEqual({ Path: 'a', PATH: 'c' })
    const env = { Foo: '1', FOO: '2', bar: '3' }
    deleteEnvValue(env, 'foo', 'win32')
    expect(env).toEqual({ bar: '3' })
  })

  it('decodes legacy code-page output (GBK) and leaves valid UTF-8 alone', async () => {
    const gbk = iconv.encode('中文输出', 'gbk')
    const legacy = recordingSpawn({ output: gbk })
    const port = createExecutionPort({
      platform: 'win32',
      spawnFile: legacy.spawnFile,
      isFile,
      chcp: async () => 'Active code page: 936',
    })
    const result = await port.execute({
      command: { mode: 'argv', file: 'git', args: [] },
      cwd: '/',
      env: WIN_ENV,
    })
    expect(result.stdout).toBe('中文输出')
    expect(decodeWindowsOutput(Buffer.from('中文'), 'gb18030')).toBe('中文')
    // A budget cut inside a UTF-8 character is still UTF-8, not legacy text.
    expect(decodeWindowsOutput(Buffer.from('中文').subarray(0, 4), 'gb18030', true)).toBe('中')
  })
})

describe('win32 output encoding choice', () => {
  const failingChcp = async () => {
    throw new Error('timed out')
  }

  it.each([
    [
      'override wins over chcp',
      { SHELLGATE_WINDOWS_OUTPUT_ENCODING: 'cp866' },
      'Active code page: 936',
      'en-US',
      'cp866',
    ],
    ['chcp 936', {}, 'Active code page: 936', 'en-US', 'gb18030'],
    ['chcp 932', {}, 'Aktive Codepage: 932.', 'de-DE', 'cp932'],
    ['65001 guesses zh', {}, 'Active code page: 65001', 'zh-CN', 'gb18030'],
    ['65001 guesses ja', {}, 'Active code page: 65001', 'ja-JP', 'cp932'],
    ['65001 guesses ko', {}, 'Active code page: 65001', 'ko-KR', 'cp949'],
    ['65001 with an English locale: no guess', {}, 'Active code page: 65001', 'en-US', null],
  ])('%s', async (_name, env, chcpOutput, locale, expected) => {
    expect(await resolveWindowsOutputEncoding({ env, locale, chcp: async () => chcpOutput })).toBe(expected)
  })

  it('a failed or slow chcp falls back to the locale guess', async () => {
    expect(await resolveWindowsOutputEncoding({ env: {}, locale: 'ko-KR', chcp: failingChcp })).toBe('cp949')
  })

  it('chcp is asked with a 1 s timeout', async () => {
    let asked = 0
    const chcp = async (timeoutMs: number) => {
      asked = timeoutMs
      return '437'
    }
    await resolveWindowsOutputEncoding({ env: {}, locale: 'en', chcp })
    expect(asked).toBe(1_000)
  })
})
