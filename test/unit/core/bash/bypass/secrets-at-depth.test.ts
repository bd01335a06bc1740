import { spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

const hasRg = spawnSync('rg', ['--version']).status === 0

describe('secret files at any depth and the folders that hold them (issue 21.4)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  function workspace(files: Record<string, string>): string {
    const root = realpathSync(tempDir())
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true })
      writeFileSync(join(root, file), text)
    }
    return root
  }
  const classify = (command: string, cwd: string) =>
    classifyCommand(command, { cwd, workspace: cwd, platform: 'linux' })
  const grep = (command: string, cwd: string) =>
    // stdin from /dev/null, as the executor gives it: rg searches a piped stdin instead of the folder.
    spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).stdout

  it('grep -rn prints a .env four folders down for real, and asks, -l too; --include=*.ts does not', () => {
    const cwd = workspace({ 'src/a/b/c/.env': 'TOKEN=hunter2\n', 'src/x.ts': 'TOKEN usage\n' })
    expect(grep('grep -rn TOKEN .', cwd)).toContain('hunter2')
    const verdict = classify('grep -rn TOKEN .', cwd)
    expect(verdict).toMatchObject({ readOnly: true, asks: [expect.objectContaining({ kind: 'secret' })] })
    expect(verdict.asks?.[0]?.reason).toContain('src/a/b/c/.env')
    expect(grep('grep -rn --include=*.ts TOKEN src', cwd)).not.toContain('hunter2')
    expect(classify('grep -rn --include=*.ts TOKEN src', cwd).asks).toBeUndefined()
    // Only names, yet each answer says whether a guessed string is in .env (red-team, fifth review).
    expect(grep('grep -rl TOKEN=h .', cwd)).toContain('.env')
    expect(grep('grep -rl TOKEN=x .', cwd)).not.toContain('.env')
    expect(classify('grep -rln TOKEN .', cwd).asks?.[0]?.reason).toContain('src/a/b/c/.env')
    expect(classify('grep -rn --exclude-dir=a TOKEN .', cwd).asks).toBeUndefined()
    // After the operands the filter is an option only while getopt permutes: with POSIXLY_CORRECT
    // it is a file name, and the whole folder is printed. Both readings are judged, so it asks.
    expect(grep('grep -rn TOKEN src --include=*.ts', cwd)).not.toContain('hunter2')
    expect(grep('POSIXLY_CORRECT=1 grep -rn TOKEN src --include=*.ts', cwd)).toContain('hunter2')
    expect(classify('grep -rn TOKEN src --include=*.ts', cwd).asks?.[0]?.reason).toContain('.env')
  })

  it('a secret added after a first classify is seen by the next one', () => {
    const cwd = workspace({ 'src/x.ts': 'x\n' })
    expect(classify('grep -rn x src', cwd).asks).toBeUndefined()
    writeFileSync(join(cwd, 'src', 'prod.env'), 'PASSWORD=x\n')
    expect(classify('grep -rn x src', cwd).asks?.[0]?.reason).toContain('prod.env')
    mkdirSync(join(cwd, 'src', 'deep', 'er'), { recursive: true })
    writeFileSync(join(cwd, 'src', 'deep', 'er', 'id_ed25519'), 'KEY\n')
    writeFileSync(join(cwd, 'src', 'prod.env.example'), '')
    expect(classify('grep -rn x src/deep', cwd).asks?.[0]?.reason).toContain('id_ed25519')
  })

  it("a repository's .git/config with a password in a remote URL is a secret a recursive grep prints", () => {
    const cwd = workspace({ 'a.txt': 'x\n' })
    spawnSync('git', ['init', '-q', cwd])
    spawnSync('git', ['-C', cwd, 'remote', 'add', 'origin', 'https://me:ghp_secret@github.com/o/r.git'])
    expect(grep('grep -rn ghp_ .', cwd)).toContain('ghp_secret')
    expect(classify('grep -rn ghp_ .', cwd).asks?.[0]?.reason).toContain('.git/config')
  })

  it.skipIf(!hasRg)(
    'rg skips hidden files unless --hidden: a deep .env asks only then, app.env always',
    () => {
      const cwd = workspace({ 'a/b/c/.env': 'TOKEN=hunter2\n', 'src/x.ts': 'x\n' })
      expect(grep('rg TOKEN', cwd)).not.toContain('hunter2')
      expect(grep('rg --hidden TOKEN', cwd)).toContain('hunter2')
      expect(classify('rg TOKEN', cwd).asks).toBeUndefined()
      expect(classify('rg --hidden TOKEN', cwd).asks?.[0]?.reason).toContain('.env')
      writeFileSync(join(cwd, 'a', 'b', 'app.env'), 'TOKEN=hunter3\n')
      expect(grep('rg TOKEN', cwd)).toContain('hunter3')
      expect(classify('rg TOKEN', cwd).asks?.[0]?.reason).toContain('app.env')
    },
  )

  const SECRET_NAMES = [
    '.env',
    '.env.local',
    '.env-local',
    '.env_prod',
    'app.env',
    'prod.env',
    '.envrc',
    'key.pem',
    'server.key',
    'id_rsa',
    'credentials.json',
    '.npmrc',
    'secrets.yaml',
    'client_secret_1.json',
    'cert.p12',
    '.pgpass',
  ]
  const PLAIN_NAMES = [
    'env.ts',
    'environment.md',
    'README.md',
    'id_rsa.pub',
    'keys.ts',
    'public.pem.txt',
    'envelope.c',
  ]
  it('every secret name at any depth asks for grep -r, rg --hidden and diff -r; plain names do not (seed 214, 120 trees)', () => {
    const random = seededRandom(214)
    for (let index = 0; index < 120; index += 1) {
      const depth = Math.floor(random() * 7)
      const folders = Array.from({ length: depth }, () =>
        pick(random, ['src', 'lib', 'config', 'a', 'deep', 'x-y']),
      )
      const secret = random() < 0.5
      const name = pick(random, secret ? SECRET_NAMES : PLAIN_NAMES)
      const file = [...folders, name].join('/')
      const cwd = workspace({ [file]: 'TOKEN=v\n', 'other/z.txt': 'TOKEN\n' })
      for (const command of [
        'grep -rn TOKEN .',
        ...(hasRg ? ['rg --hidden TOKEN'] : []),
        'diff -r . other',
      ]) {
        const asks = (classify(command, cwd).asks ?? []).map((ask) => ask.reason).join('; ')
        if (secret) expect(asks, `${command} with ${file}`).toContain(name)
        else expect(asks, `${command} with ${file}`).not.toContain(name)
      }
    }
  })
})
