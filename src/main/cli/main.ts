import { APP_VERSION } from '../core/version'
import type { CliIo } from './command'
import { commands } from './commands'
import { EXIT_USAGE, UsageError } from './usage-error'

/** Runs one CLI invocation and resolves to its exit code; never calls process.exit itself. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText())
    return name === undefined ? EXIT_USAGE : 0
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${APP_VERSION}\n`)
    return 0
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!entry) {
    io.stderr(`shellgate: unknown command "${name}" (see shellgate --help)\n`)
    return EXIT_USAGE
  }
  const command = await entry.load()
  if (rest[0] === '--help' || rest[0] === '-h') {
    io.stdout(`${command.usage}\n`)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n`)
      return EXIT_USAGE
    }
    io.stderr(`shellgate ${name}: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length))
  const lines = Object.entries(commands).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  )
  return [
    `shellgate ${APP_VERSION}: run AI coding agents' shell commands safely and visibly`,
    '',
    'Usage: shellgate <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  --help, -h     show help (also: shellgate <command> --help)',
    '  --version, -v  print the version',
    '',
  ].join('\n')
}
