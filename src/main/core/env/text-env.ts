import { type EnvRecord, readEnv, writeEnv } from './env-keys'

/**
 * A UTF-8 locale that exists out of the box: glibc and musl ship C.UTF-8, macOS does not but
 * always has en_US.UTF-8. Without one, `ls` and `wc` print non-ASCII file names as question marks.
 */
export function utf8LocaleFor(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8'
}

/** Set to 1 to keep LANG, LC_CTYPE and LC_ALL exactly as the environment has them. */
export const KEEP_LOCALE_KEY = 'SHELLGATE_KEEP_LOCALE'

function needsUtf8(value: string | undefined): boolean {
  return value === undefined || value === '' || value === 'C' || value === 'POSIX'
}

/**
 * Text settings every child gets (seed 000, applyExecutionTextEnv), changed in place.
 *
 * LC_ALL=C or POSIX gets the same treatment (issue 15.5): it overrides LANG and LC_CTYPE in every
 * libc, so leaving it would undo the fix above, and `wc -m` or `ls` would count and print bytes.
 * SHELLGATE_KEEP_LOCALE=1 keeps the locale variables exactly as they are, for a user who chose C
 * (byte-wise sorting) on purpose. An empty LC_ALL is unset as far as libc goes and stays empty.
 *
 * PYTHONUTF8=1 (decided, pinned by text-env.test.ts): Python's UTF-8 mode makes open(), stdio and
 * os.fsdecode UTF-8 whatever the locale. It does change open()'s default encoding, which only
 * differs where the locale is not UTF-8 (Windows code pages, C locales), and there the agent
 * reads and writes UTF-8 source files and parses UTF-8 output, so legacy-code-page files would be
 * the wrong result. PEP 686 makes UTF-8 mode the default from Python 3.15, so we only bring that
 * forward. A value the user exported (PYTHONUTF8=0 included) wins: it is a deliberate choice.
 */
export function applyExecutionTextEnv(env: EnvRecord, platform: NodeJS.Platform): void {
  if (platform !== 'win32' && env[KEEP_LOCALE_KEY] !== '1') {
    const locale = utf8LocaleFor(platform)
    if (needsUtf8(env.LANG)) env.LANG = locale
    // Only LC_CTYPE that is set to C/POSIX is fixed: when missing, LANG above already covers it.
    if (env.LC_CTYPE !== undefined && needsUtf8(env.LC_CTYPE)) env.LC_CTYPE = locale
    if (env.LC_ALL === 'C' || env.LC_ALL === 'POSIX') env.LC_ALL = locale
  }
  writeEnv(env, 'PYTHONIOENCODING', 'utf-8', platform)
  if (readEnv(env, 'PYTHONUTF8', platform) === undefined) writeEnv(env, 'PYTHONUTF8', '1', platform)
}
