import { claudeCodeHook } from '../../mcp/hooks/claude-code-hook'
import { codexHook } from '../../mcp/hooks/codex-hook'
import { geminiHook } from '../../mcp/hooks/gemini-hook'
import type { HookClient } from '../../mcp/hooks/hook-client'
import { answerHook, type HookIo } from '../../mcp/hooks/run-hook'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

const CLIENTS: Record<string, HookClient> = {
  'claude-code': claudeCodeHook,
  codex: codexHook,
  gemini: geminiHook,
}

export const hookCommand: CliCommand = {
  usage: [
    'Usage: shellgate hook claude-code|codex|gemini [--no-rewrite]',
    '',
    "  Reads the client's hook JSON on stdin and prints its decision JSON on stdout (nothing else).",
    '  Read-only commands and ones your rules allow: allow. Deny rules and plan mode: deny, with the',
    '  reason. Anything else waits for the person in Shellgate (SHELLGATE_HOOK_WAIT_MS, default 590000),',
    '  then allow, or deny with their message.',
    "  An allowed command is rewritten to `shellgate ticket T`: the client's shell tool runs that, and",
    '  Shellgate runs the decided command once, in its sandbox, streaming the output back.',
    '  --no-rewrite  for a client version that ignores the rewrite: the agent runs allowed commands in',
    '                its own shell, judged by the stricter verdict for an unsandboxed run.',
    '  When Shellgate cannot decide (no hub, bad input, any error, nobody answered): claude-code answers',
    '  ask (its own prompt takes over); codex and gemini answer deny with the reason, because they would',
    '  run the command on ask.',
    '  Set it up with `shellgate connect <client>`.',
  ].join('\n'),
  run: (argv, io) => runHookCommand(argv, io),
}

/**
 * `shellgate hook …` itself, for the CLI and for the hook's own entry (src/main/hook-cli.ts),
 * which reads stdin without Node's streams.
 */
export async function runHookCommand(
  argv: readonly string[],
  io: Omit<HookIo, 'rewrite'> & { stdout: (text: string) => void },
): Promise<number> {
  const [name, ...extra] = argv
  const client = name !== undefined && Object.hasOwn(CLIENTS, name) ? CLIENTS[name] : undefined
  const noRewrite = extra.length === 1 && extra[0] === '--no-rewrite'
  if (!client || (extra.length > 0 && !noRewrite)) {
    throw new UsageError(
      `shellgate hook: expected one of claude-code, codex, gemini (and optionally --no-rewrite); got "${argv.join(' ')}"`,
    )
  }
  const answer = await answerHook(client, { ...io, rewrite: !noRewrite })
  io.stdout(`${JSON.stringify(answer)}\n`)
  return 0
}
