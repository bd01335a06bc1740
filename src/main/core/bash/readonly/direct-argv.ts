/** Whole command lines known to print and do nothing else. */
const EXACT_ARGV: ReadonlySet<string> = new Set([
  'node -v',
  'node --version',
  'python --version',
  'python -V',
  'python3 --version',
  'python3 -V',
  'npm -v',
  'npm --version',
  'pnpm --version',
  'yarn --version',
  'bun --version',
  'deno --version',
  'go version',
  'cargo --version',
  'rustc --version',
  'java -version',
  'ruby --version',
  'git --version',
  'docker --version',
  'docker version',
  'gh --version',
  'ip addr',
  'ip a',
  'ip addr show',
  'ip route',
  'ip r',
  'ip link',
  'ip link show',
  'arch',
  'ifconfig',
  'ifconfig -a',
  'history',
])

/**
 * bash's test builtin evaluates the subscript of `-v 'a[$(cmd)]'` as arithmetic, running `cmd`;
 * `-R` (nameref) takes the same kind of operand, so it is refused too. Any position counts: `!`,
 * `-a` and `-o` join several tests in one command.
 */
const EVALUATING_TEST_OPERATORS: ReadonlySet<string> = new Set(['-v', '-R'])

/**
 * Exact argv first, then the few commands whose only read-only forms are special: `history N`
 * (other flags clear or write the history file), `ifconfig IFACE` (more operands configure it).
 * `arch CMD` runs CMD on macOS, so only bare `arch` is in the exact set. Undefined means "not decided here".
 */
export function evaluateDirectArgv(argv: string[]): { readOnly: boolean; reason: string } | undefined {
  const line = argv.join(' ')
  if (EXACT_ARGV.has(line)) return { readOnly: true, reason: `${line} only prints information` }
  const [name, ...args] = argv
  if (name === 'history') {
    return args.length === 1 && /^\d+$/.test(args[0] as string)
      ? { readOnly: true, reason: 'history N only prints the last N entries' }
      : { readOnly: false, reason: 'history with flags can clear or write the history file' }
  }
  if (name === 'ifconfig') {
    return args.length === 1 && /^[\w.:-]+$/.test(args[0] as string)
      ? { readOnly: true, reason: 'ifconfig IFACE only prints that interface' }
      : { readOnly: false, reason: 'ifconfig with more operands configures an interface' }
  }
  if (name === 'command' && (args[0] === '-v' || args[0] === '-V') && args.length >= 2) {
    return { readOnly: true, reason: `command ${args[0]} only looks names up` }
  }
  if ((name === 'test' || name === '[') && args.some((arg) => EVALUATING_TEST_OPERATORS.has(arg))) {
    const operator = args.find((arg) => EVALUATING_TEST_OPERATORS.has(arg))
    return {
      readOnly: false,
      reason: `${name} ${operator} evaluates an array subscript in its operand (a[$(…)]), which runs a command`,
    }
  }
  if (name === 'arch') return { readOnly: false, reason: 'arch with operands runs a command' }
  return undefined
}
