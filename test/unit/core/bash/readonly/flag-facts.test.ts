import { describe, expect, it } from 'vitest'
import { commandHasNoFileOrWriteFlags } from '../../../../../src/main/core/bash/readonly/flag-facts'

describe('commandHasNoFileOrWriteFlags', () => {
  it.each(['cat', 'ls', 'head', 'tail', 'cut', 'stat', 'tac', 'nl'])(
    '%s: any word can only be a flag that prints',
    (name) => {
      expect(commandHasNoFileOrWriteFlags(name, 'linux')).toBe(true)
    },
  )

  it.each([
    ['wc', '--files0-from=F prints the names F lists'],
    ['grep', '-f FILE reads patterns from a file'],
    ['sort', '-o writes'],
    ['uniq', 'a second operand is the output'],
    ['date', 'an operand sets the clock'],
    ['du', '--files0-from'],
    ['diff', '--from-file, -l runs pr'],
    ['strings', '@FILE is a response file'],
    ['md5sum', '-c reads the files a list names'],
    ['test', '-v evaluates a subscript'],
    ['find', '-newer FILE'],
    ['python3', 'no table at all'],
  ])('%s: not without a file or write flag (%s)', (name) => {
    expect(commandHasNoFileOrWriteFlags(name, 'linux')).toBe(false)
  })
})
