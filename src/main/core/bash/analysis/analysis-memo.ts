import { analyzeCommand } from './analyze-command'
import type { CommandAnalysis } from './command-analysis'

/**
 * The parse is a pure function of the line, and agents send the same lines again and again (`git
 * status`, a hook's check and then its run), so the last analyses are kept, least recently used
 * first out. Longer lines are parsed every time: they are rare, and keeping them costs memory.
 * Callers only read an analysis; nothing downstream changes one.
 */
const MEMO_ENTRIES = 1_024
const MEMO_MAX_CHARS = 2_000
const memo = new Map<string, CommandAnalysis>()

export function analyzeCommandOnce(command: string): CommandAnalysis {
  if (typeof command !== 'string' || command.length > MEMO_MAX_CHARS) return analyzeCommand(command)
  const known = memo.get(command)
  if (known) {
    memo.delete(command)
    memo.set(command, known)
    return known
  }
  const analysis = analyzeCommand(command)
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string)
  memo.set(command, analysis)
  return analysis
}
