import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../exec/temp-dir'

const tempDir = tempDirsRemovedAfterEach()

describe('classifyCommand verdicts', () => {
  it('answers every part with argv, env, redirects, connector and its own reason', () => {
    const verdict = classifyCommand('LANG=C grep -n foo src/a.ts 2>/dev/null | sort -u > out.txt', {
      cwd: tempDir(),
      platform: 'linux',
    })
    expect(verdict).toEqual({
      command: 'LANG=C grep -n foo src/a.ts 2>/dev/null | sort -u > out.txt',
      parsed: true,
      readOnly: false,
      permissionSafe: true,
      reason: '> out.txt writes to a file',
      unsupported: [],
      parts: [
        {
          text: 'LANG=C grep -n foo src/a.ts 2>/dev/null',
          argv: ['grep', '-n', 'foo', 'src/a.ts'],
          envAssignments: [{ name: 'LANG', value: 'C' }],
          redirects: [{ operator: '2>', target: '/dev/null', level: 'command' }],
          connector: null,
          readOnly: true,
          reason: 'grep with these flags only reads',
        },
        {
          text: 'sort -u > out.txt',
          argv: ['sort', '-u'],
          envAssignments: [],
          redirects: [{ operator: '>', target: 'out.txt', level: 'command' }],
          connector: '|',
          readOnly: false,
          reason: '> out.txt writes to a file',
        },
      ],
    })
  })

  it('keeps the parts it walked when something else is unsupported', () => {
    const verdict = classifyCommand('ls && (rm -rf x)', { cwd: tempDir(), platform: 'linux' })
    expect(verdict).toMatchObject({
      parsed: true,
      readOnly: false,
      permissionSafe: false,
      unsupported: ['subshell ( … )'],
      reason: 'subshell ( … ) is not analysed, so it may do anything',
    })
    expect(verdict.parts.map((part) => [part.text, part.readOnly])).toEqual([['ls', true]])
  })

  it('marks dynamic parts with a null argv and the substitution as the reason', () => {
    const verdict = classifyCommand('sort $(ls)', { cwd: tempDir(), platform: 'linux' })
    expect(verdict).toMatchObject({ parsed: true, permissionSafe: false, readOnly: false })
    expect(verdict.parts[0]).toMatchObject({
      argv: null,
      readOnly: false,
      reason: '$(ls) is a command substitution: it runs first',
    })
  })

  it('gives a parse failure no parts', () => {
    expect(classifyCommand('echo "x', { cwd: tempDir() })).toEqual({
      command: 'echo "x',
      parsed: false,
      readOnly: false,
      permissionSafe: false,
      reason: 'the command does not parse: unterminated double quote at offset 5',
      parts: [],
      unsupported: [],
    })
  })

  it('uses the host platform when none is given', () => {
    const verdict = classifyCommand('xargs echo', { cwd: tempDir() })
    expect(verdict.readOnly).toBe(process.platform !== 'win32')
  })
})
