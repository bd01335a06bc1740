import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../../src/main/core/bash/classify'
import { evaluateVersionQuery } from '../../../../../../src/main/core/bash/readonly/version-query'
import { rustupCargoDir } from '../../rustup-cargo'

/**
 * Issue 21.5: common readers the verdict did not know. Each acceptance first runs the command for
 * real here (where the tool is installed) to show what it does, then asks the verdict, in a
 * workspace holding the files it reads.
 */
let dir = ''

function run(command: string): { status: number | null; stdout: string } {
  const result = spawnSync('bash', ['-c', command], {
    cwd: dir,
    encoding: 'utf8',
    // stdin /dev/null: Debian's bash sources ~/.bashrc when stdin is a socket, as Node's pipes are.
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
  })
  return { status: result.status, stdout: result.stdout }
}

function verdict(command: string) {
  return classifyCommand(command, { cwd: dir, workspace: dir, platform: 'linux' })
}

const rustupCargo = rustupCargoDir()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-readers-'))
  copyFileSync('/bin/true', join(dir, 'prog'))
  writeFileSync(join(dir, 'table.txt'), 'a 1\nbb 22\n')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('readers that only print', () => {
  it.each([
    ['objdump -h prog', 'file format elf'],
    ['objdump -d --no-show-raw-insn prog', 'Disassembly of section'],
    ['readelf -h prog', 'ELF Header'],
    ['readelf -SW prog', 'Section Headers'],
    ['lscpu', 'Architecture'],
    ['lscpu -J', '"lscpu"'],
    ['lsblk -o NAME', 'NAME'],
    ['top -bn1', 'top -'],
    ['top -b -n 1 -w 120', 'Tasks:'],
    ['column -t table.txt', 'bb  22'],
    ['bash --version', 'GNU bash'],
    ['make --version', 'GNU Make'],
    ['perl --version', 'perl'],
  ])('%s prints (%s) and is read-only', (command, printed) => {
    const real = run(command)
    expect(real.status, command).toBe(0)
    expect(real.stdout).toContain(printed)
    expect(verdict(command)).toMatchObject({ readOnly: true })
    expect(verdict(command).asks ?? []).toEqual([])
  })

  it('objdump -S prints the lines of source files the object names, so those are known only at run time', () => {
    expect(verdict('objdump -S prog').asks?.map((ask) => ask.path)).toEqual(['(known at run time)'])
  })

  it.each([
    ['top', 'interactive'],
    ['lscpu --sysroot /tmp', 'reads system files under a folder'],
    ['lsblk --sysroot=/tmp', 'reads system files under a folder'],
    ['objdump @opts prog', 'reads more arguments'],
  ])('%s is not read-only without asking (%s)', (command, reason) => {
    const result = verdict(command)
    const asks = result.asks?.length ?? 0
    expect(!result.readOnly || asks > 0, result.reason).toBe(true)
    if (!result.readOnly) expect(result.reason).toContain(reason)
  })
})

describe('readers not installed here: the verdict only', () => {
  // tshark (Wireshark) and the docker compose plugin are not on this machine; their tables follow
  // their documentation, and the verdict is checked without a real run.
  it.each([
    ['tshark -r capture.pcap', true],
    ['tshark -r capture.pcap -Y http -T fields -e http.host', true],
    ['tshark -i eth0', false],
    ['tshark -r capture.pcap -w out.pcap', false],
    ['tshark -r capture.pcap -X lua_script:evil.lua', false],
    ['docker compose ps', true],
    ['docker compose ps -a --format json', true],
    ['docker compose -f other.yml ps', false],
    ['docker compose up', false],
  ])('%s → read-only %s', (command, readOnly) => {
    expect(verdict(command).readOnly).toBe(readOnly)
  })

  it('tshark -r judges the capture file as a place read', () => {
    const result = classifyCommand('tshark -r /etc/passwd', { cwd: dir, workspace: dir, platform: 'linux' })
    expect(result.asks?.map((ask) => ask.path)).toEqual(['/etc/passwd'])
  })
})

describe('X --version for any X', () => {
  it('a compiled program in a system folder is read-only; the same binary elsewhere is not', () => {
    const elsewhere = join(dir, 'bin')
    mkdirSync(elsewhere, { recursive: true })
    copyFileSync('/bin/true', join(elsewhere, 'mytool'))
    spawnSync('chmod', ['+x', join(elsewhere, 'mytool')])
    expect(evaluateVersionQuery(['true', '--version'], 'linux', '/usr/bin:/bin')).toMatchObject({
      readOnly: true,
    })
    expect(evaluateVersionQuery(['mytool', '--version'], 'linux', `${elsewhere}:/usr/bin`)).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('not in a system folder'),
    })
    expect(evaluateVersionQuery(['true', '--version'], 'linux', `bin:/usr/bin`)).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('looked up from the folder it runs in'),
    })
  })

  it('a script in a system folder is not: it may read the project first', () => {
    // /usr/bin/which on Debian is a POSIX shell script.
    expect(run('head -c2 /usr/bin/which.debianutils').stdout).toBe('#!')
    expect(evaluateVersionQuery(['which.debianutils', '--version'], 'linux', '/usr/bin')).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('is a script'),
    })
  })

  it('cargo --version runs the toolchain a rust-toolchain.toml names, any program at all, so it is refused', (context) => {
    if (rustupCargo === null)
      return context.skip("no rustup cargo proxy is installed (Debian's cargo reads no toolchain file)")
    const project = join(dir, 'rusty')
    const toolchain = join(dir, 'toolchain', 'bin')
    mkdirSync(project, { recursive: true })
    mkdirSync(toolchain, { recursive: true })
    writeFileSync(join(toolchain, 'cargo'), `#!/bin/sh\ntouch "${dir}/ran"\necho planted\n`, {
      mode: 0o755,
    })
    writeFileSync(join(project, 'rust-toolchain.toml'), `[toolchain]\npath = "${join(dir, 'toolchain')}"\n`)
    const real = spawnSync(join(rustupCargo as string, 'cargo'), ['--version'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(real.stdout).toContain('planted')
    const result = classifyCommand('cargo --version', {
      cwd: project,
      workspace: project,
      platform: 'linux',
    })
    expect(result).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('code the project chose'),
    })
  })

  it.each(['yarn --version', 'rustc --version', 'go --version', 'mvn --version', 'git --help'])(
    '%s is refused by name',
    (command) => {
      expect(verdict(command).readOnly).toBe(false)
    },
  )
})
