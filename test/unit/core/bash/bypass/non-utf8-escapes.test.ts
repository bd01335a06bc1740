import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

/**
 * `$'\xff'` is one raw byte, which no UTF-8 string holds (fifth review): a symlink committed under
 * that name led to a secret while the verdict judged some other, missing name in the workspace.
 */
describe('ANSI-C escapes of bytes that are not UTF-8', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('a symlink named by a raw byte reaches the secret in real bash, and is never read unasked', () => {
    const root = tempDir()
    const ws = join(root, 'ws')
    mkdirSync(ws)
    writeFileSync(join(root, 'secret'), 'BYTE-NAMED-SECRET-2a7\n')
    // The name is the single byte 0xff, made by bash itself.
    execFileSync('bash', ['-c', `ln -s ${join(root, 'secret')} $'\\xff'`], { cwd: ws })
    for (const word of ["$'\\xff'", "$'\\377'", "$'\\xFF'"]) {
      const command = `cat ${word}`
      expect(execFileSync('bash', ['-c', command], { cwd: ws, encoding: 'utf8' })).toContain(
        'BYTE-NAMED-SECRET',
      )
      const verdict = classifyCommand(command, { cwd: ws, workspace: ws })
      expect(verdict.readOnly && (verdict.asks ?? []).length === 0, `${command}: ${verdict.reason}`).toBe(
        false,
      )
    }
  })

  it('every byte above 0x7f alone is dynamic, in hex and in octal; UTF-8 spelled in bytes is not', () => {
    const unasked: string[] = []
    for (let byte = 0x80; byte <= 0xff; byte++) {
      for (const escaped of [
        `\\x${byte.toString(16)}`,
        `\\${byte.toString(8)}`,
        `a\\x${byte.toString(16)}b`,
      ]) {
        const verdict = classifyCommand(`cat $'${escaped}'`, { cwd: '/tmp', workspace: '/tmp' })
        if (verdict.readOnly && (verdict.asks ?? []).length === 0) unasked.push(escaped)
      }
    }
    expect(unasked).toEqual([])
    for (const spelled of ["$'\\xc3\\xa9'", "$'\\360\\237\\230\\200'", "$'x\\\\xff'"]) {
      const verdict = classifyCommand(`echo ${spelled}`, { cwd: '/tmp', workspace: '/tmp' })
      expect(verdict.readOnly, `${spelled}: ${verdict.reason}`).toBe(true)
    }
  })
})
