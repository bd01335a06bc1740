import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../../src/main/core/bash/classify'

/**
 * grep's and rg's own file filters, read as the tools read them (fifth review): the last matching
 * --include/--exclude (or -g glob) wins, a name none matches follows the tool's default, and rg
 * goes into hidden files when a glob, a type or an ignore file's `!` line whitelists them. Each
 * command is run for real first.
 */
const root = mkdtempSync(join(tmpdir(), 'sg-walk-filters-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const MARKER = 'SECRET-WALK-4e1a'
const hasRg = spawnSync('rg', ['--version']).status === 0

/** The secrets below; `clean` leaves out the one no filter hides (config/prod.env, not a dot file). */
function workspace(name: string, extra: Record<string, string> = {}, clean = false): string {
  const dir = join(root, name)
  const files = {
    '.env': `API_KEY=${MARKER}\n`,
    'deep/a/.env.production': `TOKEN=${MARKER}\n`,
    'config/prod.env': `K=${MARKER}\n`,
    'src/app.ts': 'const x = 1\n',
    ...extra,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  if (clean) rmSync(join(dir, 'config', 'prod.env'))
  return dir
}

function realRun(command: string, cwd: string): string {
  return spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    .stdout
}

function expectAsks(command: string, cwd: string): void {
  expect(realRun(command, cwd), command).toContain(MARKER)
  const verdict = classifyCommand(command, { cwd, workspace: cwd })
  expect(verdict.readOnly, verdict.reason).toBe(true)
  expect(verdict.asks?.length ?? 0, `${command}: ${verdict.reason}`).toBeGreaterThan(0)
}

function expectRunsAtOnce(command: string, cwd: string): void {
  expect(realRun(command, cwd), command).not.toContain(MARKER)
  const verdict = classifyCommand(command, { cwd, workspace: cwd })
  expect(
    verdict.readOnly && (verdict.asks ?? []).length === 0,
    `${command}: ${JSON.stringify(verdict.asks)}`,
  ).toBe(true)
}

describe('grep -r --include and --exclude: the last matching one wins', () => {
  const dir = workspace('grep')
  it.each([
    `grep -r --exclude=zzz --include=f ${MARKER} .`,
    `grep -r --exclude='*' --include='.env*' ${MARKER} .`,
    `grep -r --include='*.ts' --exclude=x --include='*.env' ${MARKER} .`,
    `grep -r --exclude='*.env' --include='*.env' ${MARKER} .`,
  ])('%s reads the secret for real, and asks', (command) => expectAsks(command, dir))

  it.each([
    `grep -r --include='*.ts' ${MARKER} .`,
    `grep -r --include='*.ts' --exclude='*.env' ${MARKER} .`,
    `grep -r --include='*.env' --exclude='*.env' --exclude='.env*' ${MARKER} .`,
  ])('%s opens no secret, and runs at once', (command) => expectRunsAtOnce(command, dir))
})

describe.skipIf(!hasRg)('rg: globs, types and ignore files that let it into hidden files', () => {
  const dir = workspace('rg')
  it.each([
    `rg -g '.env' ${MARKER}`,
    `rg --glob=.env* ${MARKER}`,
    `rg --type-add 'x:.env*' -t x ${MARKER}`,
    `rg --iglob '*.ENV' ${MARKER}`,
    `rg --hidden -g '!.env' -g '.env' ${MARKER}`,
    `rg -g '!*.ts' ${MARKER}`,
  ])('%s reads the secret for real, and asks', (command) => expectAsks(command, dir))

  it('a `!` line in a planted .ignore, here or in a folder above, whitelists .env for rg', () => {
    const here = workspace('rg-ignore', { '.ignore': '!.env\n' }, true)
    expectAsks(`rg ${MARKER}`, here)
    const above = workspace('rg-above', {}, true)
    writeFileSync(join(above, '..', '.rgignore'), '!.env*\n')
    try {
      expectAsks(`rg ${MARKER} ${join(above, 'deep')}`, above)
    } finally {
      rmSync(join(above, '..', '.rgignore'))
    }
  })

  it('an ignore file named on the line, stdin included, may whitelist .env too (sixth review)', () => {
    const dir = workspace('rg-own-ignore', { 'x.ignore': '!.env\n' }, true)
    expectAsks(`echo '!.env' | rg --ignore-file /dev/stdin ${MARKER} .`, dir)
    expectAsks(`rg --ignore-file x.ignore ${MARKER}`, dir)
  })

  it('an ignore file edited in place after a first look is seen on the next one', () => {
    const dir = workspace('rg-edit', { '.ignore': 'dist/\n' }, true)
    expectRunsAtOnce(`rg ${MARKER}`, dir)
    writeFileSync(join(dir, '.ignore'), 'dist/\n!.env\n')
    expectAsks(`rg ${MARKER}`, dir)
  })

  it.each([`rg ${MARKER}`, `rg -g '*.ts' ${MARKER}`, `rg --hidden -g '!.env*' -g '!*.env' ${MARKER}`])(
    '%s opens no secret, and runs at once',
    (command) => expectRunsAtOnce(command, workspace(`rg-clean-${command.length}`, {}, true)),
  )
})
