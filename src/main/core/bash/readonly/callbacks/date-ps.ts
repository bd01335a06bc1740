import type { PolicyCheck } from '../flag-types'

/** `date 0101120026` sets the clock; only `+FORMAT` operands print. */
export const dateOperandCheck: PolicyCheck = ({ positionals }) => {
  const setter = positionals.find((operand) => !operand.startsWith('+'))
  return setter === undefined
    ? null
    : `date ${setter} sets the system clock; only +FORMAT operands are read-only`
}

/** BSD-style `ps e`, `ps aux ewww`: the e modifier prints every process's environment, secrets included. */
export const psEnvironmentCheck: PolicyCheck = ({ positionals }) => {
  const withEnvironment = positionals.find((operand) => /^[a-zA-Z]+$/.test(operand) && operand.includes('e'))
  if (withEnvironment !== undefined) {
    return `ps ${withEnvironment} shows each process's environment, which holds secrets`
  }
  const unknown = positionals.find((operand) => !/^[a-zA-Z]+$/.test(operand) && !/^\d+$/.test(operand))
  return unknown === undefined ? null : `ps operand ${JSON.stringify(unknown)} is not a known read-only form`
}
