import { type EnvRecord, readEnv, writeEnv } from './env-keys'

/**
 * The environment of a command Shellgate runs without asking (issue 12 point 4, issue 13 class 5).
 * "Read-only" is a verdict about the command's words; these variables change what the same words
 * do, by loading code into every program, running a program the command never named, or pointing
 * a tool at other files. They are removed for auto-run commands only: an approved command keeps
 * the user's setup, as in their terminal.
 *
 * A trailing `*` matches any suffix; matching is case-insensitive (Windows names are).
 */
export const AUTO_RUN_REMOVED_ENV: ReadonlyArray<{ pattern: string; why: string }> = [
  // LD_LIBRARY_PATH goes too (decided): with an empty or relative entry the loader searches the
  // command's cwd, a repository that may plant libc.so.6; read-only tools are system binaries
  // that do not need it, and an approved command still gets it.
  { pattern: 'LD_*', why: 'the loader preloads, audits or finds libraries through these' },
  { pattern: 'DYLD_*', why: "macOS's loader: DYLD_INSERT_LIBRARIES loads code into every program" },
  { pattern: 'NODE_OPTIONS', why: '--require and --import run a module in every node process' },
  { pattern: 'NODE_REPL_EXTERNAL_MODULE', why: 'node loads it in place of its REPL' },
  { pattern: 'PYTHONSTARTUP', why: 'python runs the file before an interactive prompt' },
  { pattern: 'PYTHONPATH', why: 'a sitecustomize.py in any listed folder runs at every start' },
  { pattern: 'PYTHONHOME', why: 'python loads its whole standard library from there' },
  { pattern: 'PYTHONINSPECT', why: 'python stays open for input after the script' },
  { pattern: 'PERL5OPT', why: 'perl reads -M (load a module) options from it' },
  { pattern: 'PERL5LIB', why: 'perl loads modules from there first' },
  { pattern: 'PERLLIB', why: 'perl loads modules from there first' },
  { pattern: 'PERL5DB', why: 'perl runs it as the debugger' },
  { pattern: 'RUBYOPT', why: 'ruby reads -r (require) options from it' },
  { pattern: 'RUBYLIB', why: 'ruby loads libraries from there first' },
  { pattern: 'JAVA_TOOL_OPTIONS', why: '-javaagent loads code into every JVM' },
  { pattern: '_JAVA_OPTIONS', why: '-javaagent loads code into every JVM' },
  { pattern: 'JDK_JAVA_OPTIONS', why: '-javaagent loads code into every JVM' },
  { pattern: 'PROMPT_COMMAND', why: 'bash runs it before each prompt' },
  { pattern: 'PS0', why: 'expanded, command substitutions included, by bash' },
  { pattern: 'PS1', why: 'expanded, command substitutions included, by bash' },
  { pattern: 'PS2', why: 'expanded, command substitutions included, by bash' },
  { pattern: 'PS3', why: 'expanded, command substitutions included, by bash' },
  { pattern: 'PS4', why: 'expanded, command substitutions included, under xtrace' },
  { pattern: 'BASH_ENV', why: 'every non-interactive bash sources the file first' },
  { pattern: 'ENV', why: 'sh and bash in POSIX mode source the file first' },
  { pattern: 'BASH_FUNC_*', why: 'exported functions replace commands such as ls or cat' },
  { pattern: 'SHELLOPTS', why: 'turns on shell options (xtrace, …) in every bash' },
  { pattern: 'BASHOPTS', why: 'turns on shopt options in every bash' },
  { pattern: 'CDPATH', why: '`cd dir` would go somewhere else than the verdict assumed' },
  { pattern: 'GLOBIGNORE', why: 'changes what a glob expands to' },
  { pattern: 'ZDOTDIR', why: 'zsh reads its startup files from there' },
  { pattern: 'PAGER', why: 'man, git and others run it' },
  { pattern: 'MANPAGER', why: 'man runs it' },
  { pattern: 'MANOPT', why: 'man reads options (-P pager) from it' },
  { pattern: 'LESS', why: 'less reads options from it; +!cmd runs a program' },
  { pattern: 'LESSOPEN', why: 'less runs it on every file it opens' },
  { pattern: 'LESSCLOSE', why: 'less runs it on every file it closes' },
  { pattern: 'LESSKEY*', why: 'less key bindings can run programs' },
  { pattern: 'EDITOR', why: 'a read-only command never needs to start an editor' },
  { pattern: 'VISUAL', why: 'a read-only command never needs to start an editor' },
  { pattern: 'BROWSER', why: 'tools start it to open links' },
  {
    pattern: 'GIT_*',
    why: 'programs to run (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_ASKPASS), another repository or config (GIT_DIR, GIT_CONFIG_*) and files to write (GIT_TRACE*)',
  },
  { pattern: 'SSH_ASKPASS', why: 'ssh runs it to ask for a passphrase' },
  { pattern: 'SUDO_ASKPASS', why: 'sudo runs it to ask for a password' },
  { pattern: 'RIPGREP_CONFIG_PATH', why: 'rg reads flags from it; --pre runs a program per file' },
  { pattern: 'TAR_OPTIONS', why: 'tar reads --to-command and --use-compress-program from it' },
  { pattern: 'OPENSSL_CONF', why: 'openssl loads engines and providers (shared objects) it names' },
  { pattern: 'OPENSSL_ENGINES', why: 'openssl loads engines from there' },
  { pattern: 'OPENSSL_MODULES', why: 'openssl loads providers from there' },
  { pattern: 'GCONV_PATH', why: 'glibc loads character-set converters (shared objects) from there' },
]

/**
 * git settings given at the command scope (GIT_CONFIG_COUNT), which beats every config file, the
 * repository's own `.git/config` included. Each one stops git from running a program the config
 * names. `diff.external` is not here: git 2.39 runs an empty value as a program name and every
 * `git diff` fails; the classifier must ask instead when a config sets it (issue 13 class 5), as
 * for `diff.<driver>.textconv` and `filter.<driver>.*`, whose driver names only the config knows.
 */
export const AUTO_RUN_GIT_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.hooksPath', '/dev/null'],
  ['core.sshCommand', 'false'],
  ['core.askPass', ''],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  // An empty value empties the list of helpers configured so far.
  ['credential.helper', ''],
  // No transport at all: a partial clone's promisor remote would otherwise fetch missing objects
  // during `git show`, `git log -p` or `git cat-file`.
  ['protocol.allow', 'never'],
  ['gpg.program', 'gpg'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.x509.program', 'gpgsm'],
]

/** Set after the GIT_* variables are gone: each makes git do less. */
const AUTO_RUN_GIT_ENV: ReadonlyArray<readonly [key: string, value: string]> = [
  ['GIT_PAGER', 'cat'],
  ['GIT_TERMINAL_PROMPT', '0'],
  // `git status` would otherwise refresh and rewrite the index.
  ['GIT_OPTIONAL_LOCKS', '0'],
  // git ≥ 2.45: never fetch missing objects from a promisor remote.
  ['GIT_NO_LAZY_FETCH', '1'],
]

const EXACT = new Set(AUTO_RUN_REMOVED_ENV.filter((e) => !e.pattern.endsWith('*')).map((e) => e.pattern))
const PREFIXES = AUTO_RUN_REMOVED_ENV.filter((e) => e.pattern.endsWith('*')).map((e) =>
  e.pattern.slice(0, -1),
)

export function isAutoRunRemovedName(name: string): boolean {
  const upper = name.toUpperCase()
  return EXACT.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix))
}

export interface AutoRunEnv {
  env: EnvRecord
  /** The names removed, sorted; what Shellgate then sets itself is not listed. */
  removedKeys: string[]
}

/** Pure: the env for a command run without asking, from the env an approved command would get. */
export function autoRunEnv(env: Readonly<EnvRecord>, platform: NodeJS.Platform): AutoRunEnv {
  const result: EnvRecord = {}
  const removedKeys: string[] = []
  for (const [key, value] of Object.entries(env)) {
    if (isAutoRunRemovedName(key)) removedKeys.push(key)
    else result[key] = value
  }
  // An empty or relative PATH entry (`:/usr/bin`, `node_modules/.bin`) is looked up from the cwd,
  // so a repository's planted ./ls would run for the `ls` the verdict judged. POSIX only: Windows
  // looks in the cwd anyway, which the Windows executor handles.
  const searchPath = platform === 'win32' ? undefined : readEnv(result, 'PATH', platform)
  if (searchPath !== undefined) {
    const absolute = searchPath.split(':').filter((dir) => dir.startsWith('/'))
    writeEnv(result, 'PATH', absolute.join(':'), platform)
  }
  for (const [key, value] of AUTO_RUN_GIT_ENV) writeEnv(result, key, value, platform)
  writeEnv(result, 'GIT_CONFIG_COUNT', String(AUTO_RUN_GIT_CONFIG.length), platform)
  AUTO_RUN_GIT_CONFIG.forEach(([key, value], index) => {
    writeEnv(result, `GIT_CONFIG_KEY_${index}`, key, platform)
    writeEnv(result, `GIT_CONFIG_VALUE_${index}`, value, platform)
  })
  return { env: result, removedKeys: removedKeys.sort() }
}
