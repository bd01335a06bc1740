import { execFile } from 'node:child_process'
import iconv from 'iconv-lite'
import { completeUtf8Length, isValidUtf8 } from './utf8'

/** seed 000: the code page query may take at most 1 s. */
export const CHCP_TIMEOUT_MS = 1_000
export const OUTPUT_ENCODING_ENV_KEY = 'SHELLGATE_WINDOWS_OUTPUT_ENCODING'

const CODE_PAGE_ENCODINGS: Record<number, string> = {
  936: 'gb18030',
  932: 'cp932',
  949: 'cp949',
  950: 'big5',
  1250: 'win1250',
  1251: 'win1251',
  1252: 'win1252',
  437: 'cp437',
  850: 'cp850',
  866: 'cp866',
}

/** Code page 65001 (UTF-8) says nothing about legacy tools, so guess their encoding from the locale. */
const LOCALE_GUESSES: [RegExp, string][] = [
  [/^zh[-_](tw|hk|mo|hant)/i, 'big5'],
  [/^zh/i, 'gb18030'],
  [/^ja/i, 'cp932'],
  [/^ko/i, 'cp949'],
]

export type ChcpRunner = (timeoutMs: number) => Promise<string>

export interface EncodingContext {
  env: Record<string, string | undefined>
  locale: string
  chcp?: ChcpRunner
}

/**
 * The encoding for bytes a Windows child printed that are not valid UTF-8: the override variable,
 * else the active code page from `chcp`, else (65001 or failure) a guess from the locale.
 */
export async function resolveWindowsOutputEncoding(context: EncodingContext): Promise<string | null> {
  const override = context.env[OUTPUT_ENCODING_ENV_KEY]?.trim()
  if (override && iconv.encodingExists(override)) return override
  const codePage = await queryCodePage(context.chcp ?? runChcp)
  if (codePage !== null && codePage !== 65001 && CODE_PAGE_ENCODINGS[codePage]) {
    return CODE_PAGE_ENCODINGS[codePage]!
  }
  if (codePage !== null && codePage !== 65001 && iconv.encodingExists(`cp${codePage}`)) return `cp${codePage}`
  return LOCALE_GUESSES.find(([pattern]) => pattern.test(context.locale))?.[1] ?? null
}

/** Valid UTF-8 is decoded as UTF-8 whatever the code page; only other bytes go through iconv. */
export function decodeWindowsOutput(bytes: Buffer, encoding: string | null, cut = false): string {
  // A budget cut may end inside a UTF-8 character; that alone does not make the output legacy text.
  const whole = cut ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes
  if (!encoding || isValidUtf8(whole)) return whole.toString('utf8')
  return iconv.decode(bytes, encoding)
}

async function queryCodePage(chcp: ChcpRunner): Promise<number | null> {
  try {
    const match = /(\d{3,5})/.exec(await chcp(CHCP_TIMEOUT_MS))
    return match ? Number(match[1]) : null
  } catch {
    return null
  }
}

const runChcp: ChcpRunner = (timeoutMs) =>
  new Promise((resolve, reject) => {
    execFile('chcp.com', [], { timeout: timeoutMs, windowsHide: true }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    )
  })
