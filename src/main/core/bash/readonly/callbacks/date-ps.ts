import type { PolicyCheck } from '../flag-types'

/** `date 0101120026` sets the clock; only `+FORMAT` operands print. */
export const dateOperandCheck: PolicyCheck = ({ positionals }) => {
  const setter = positionals.find((operand) => !operand.startsWith('+'))
  return setter === undefined
    ? null
    : `date ${setter} sets the system clock; only +FORMAT operands are read-only`
}

/** BSD-style `ps e`, `ps aux ewww`: the e modifier prints every process's environment, secrets included. */
export const psEnvironmentCheck: PolicyCheck = ({ positionals, flags }) => {
  const withEnvironment = positionals.find((operand) => /^[a-zA-Z]+$/.test(operand) && operand.includes('e'))
  if (withEnvironment !== undefined) {
    return `ps ${withEnvironment} shows each process's environment, which holds secrets`
  }
  // procps reads the whole line again as BSD options when a value fails its check (`-uxe`: no
  // user "xe"), and then `e` is the BSD modifier that prints every process's environment (fifth
  // review: -uxe, -gxe and -sxe did). A value made of letters with an e in it may become that.
  const reread = flags.find(
    (flag) => flag.value !== null && /^[a-zA-Z]+$/.test(flag.value) && flag.value.includes('e'),
  )
  if (reread !== undefined && VALIDATED.has(reread.flag)) {
    return `ps ${reread.flag} ${reread.value}: a value ps refuses makes it read the line again as BSD options, where e shows each process's environment`
  }
  const unknown = positionals.find((operand) => !/^[a-zA-Z]+$/.test(operand) && !/^\d+$/.test(operand))
  return unknown === undefined ? null : `ps operand ${JSON.stringify(unknown)} is not a known read-only form`
}

// Options whose values ps checks (users, groups, sessions, ttys, pids): a bad one is a parse error.
const VALIDATED = new Set([
  '-u',
  '-U',
  '-g',
  '-G',
  '-s',
  '-t',
  '-p',
  '-q',
  '--user',
  '--group',
  '--sid',
  '--pid',
  '--ppid',
  '--quick-pid',
])
