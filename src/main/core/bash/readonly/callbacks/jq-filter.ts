import type { PolicyCheck } from '../flag-types'

// $ENV and env expose every environment variable (tokens, keys); include/import load files;
// input_filename and $__loc__ are harmless. Matched as words anywhere in an operand: a file name
// like `env.json` is refused too, which costs a prompt, never a leak.
const JQ_REFUSED_WORDS = /\$ENV\b|\benv\b|\binclude\b|\bimport\b|\bgetpath\s*\(\s*\[\s*"ENV/

export const jqFilterCheck: PolicyCheck = ({ positionals, flags }) => {
  const values = [...positionals, ...flags.map((f) => f.value ?? '')]
  const hit = values.find((value) => JQ_REFUSED_WORDS.test(value))
  if (hit === undefined) return null
  const word = JQ_REFUSED_WORDS.exec(hit)?.[0] ?? ''
  return word.includes('ENV') || word === 'env'
    ? 'jq $ENV/env exposes the environment, which holds secrets'
    : `jq ${word} loads code from files`
}
