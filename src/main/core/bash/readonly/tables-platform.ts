import { type CommandPolicy, flagTable } from './flag-types'

// macOS base64 is Apple's own: -i names the input, -o the output file, and -D decodes. It has no
// operand form we trust to be input only, so read-only means stdin or -i.
const darwinBase64: CommandPolicy = {
  flags: flagTable({
    none: '-D -d --decode -h --help',
    number: '-b --break',
    string: '-i --input',
  }),
  refusedFlags: {
    '-o': 'base64 -o writes its output to a file (macOS)',
    '--output': 'base64 --output writes its output to a file (macOS)',
  },
  flagsCanWrite: true,
  exactLongOptions: true,
  maxPositionals: 0,
  operandCountMatters: true,
}

/**
 * Tools whose flags differ by platform: looked up before the shared tables and the any-arguments
 * set, so `base64 -o out` is judged by the macOS reading on darwin and the GNU one elsewhere.
 */
export const PLATFORM_POLICIES: Readonly<
  Partial<Record<NodeJS.Platform, Readonly<Record<string, CommandPolicy>>>>
> = {
  darwin: { base64: darwinBase64 },
}

export function platformPolicy(name: string, platform: NodeJS.Platform): CommandPolicy | undefined {
  const table = PLATFORM_POLICIES[platform]
  return table && Object.hasOwn(table, name) ? table[name] : undefined
}
