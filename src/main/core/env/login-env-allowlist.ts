/**
 * Which variables of the user's login shell a GUI-launched Shellgate adopts besides PATH (seed 000:
 * "PATH and 54 allowlisted patterns"). Everything else stays as the app was started: a login shell
 * also exports secrets, prompts and terminal state that a command runner has no business copying.
 * A trailing `*` matches any suffix. Each entry says why a command needs it.
 */
export const LOGIN_ENV_ALLOWLIST: ReadonlyArray<{ pattern: string; why: string }> = [
  { pattern: 'HOME', why: 'tools find their config through it' },
  { pattern: 'USER', why: 'git, ssh and scripts read the login name' },
  { pattern: 'LOGNAME', why: 'the POSIX spelling of the login name' },
  { pattern: 'SHELL', why: 'tools that spawn a sub-shell use the login shell' },
  { pattern: 'LANG', why: 'the user locale decides how text is printed' },
  { pattern: 'LC_*', why: 'per-category locale choices from the terminal' },
  { pattern: 'TZ', why: 'dates printed as in the terminal' },
  { pattern: 'TMPDIR', why: 'macOS per-user temp dir; tools write there' },
  { pattern: 'EDITOR', why: 'the user editor, for tools that open one non-interactively' },
  { pattern: 'VISUAL', why: 'the full-screen editor preference' },
  { pattern: 'PAGER', why: 'honoured by git and man (we also set TERM=dumb)' },
  { pattern: 'XDG_*', why: 'config, data and runtime dirs of Linux tools' },
  { pattern: 'SSH_AUTH_SOCK', why: 'git over ssh needs the running agent' },
  { pattern: 'GPG_TTY', why: 'gpg-signed commits find the pinentry' },
  { pattern: 'GNUPGHOME', why: 'a non-default gpg keyring' },
  { pattern: 'KUBECONFIG', why: 'kubectl picks the cluster from it' },
  { pattern: 'DOCKER_HOST', why: 'docker talks to colima/podman/remote engines through it' },
  { pattern: 'DOCKER_CONFIG', why: 'a non-default docker config dir' },
  { pattern: 'AWS_PROFILE', why: 'which named profile the aws CLI uses (a name, not a secret)' },
  { pattern: 'AWS_REGION', why: 'the region the aws CLI targets' },
  { pattern: 'AWS_DEFAULT_REGION', why: 'older SDKs read this spelling' },
  { pattern: 'AWS_CONFIG_FILE', why: 'a non-default aws config path' },
  { pattern: 'GOOGLE_CLOUD_PROJECT', why: 'gcloud and SDKs pick the project' },
  { pattern: 'CLOUDSDK_CONFIG', why: 'a non-default gcloud config dir' },
  { pattern: 'AZURE_CONFIG_DIR', why: 'a non-default az config dir' },
  { pattern: 'JAVA_HOME', why: 'java, gradle and maven find the JDK' },
  { pattern: 'ANDROID_HOME', why: 'Android builds find the SDK' },
  { pattern: 'ANDROID_SDK_ROOT', why: 'the older spelling of ANDROID_HOME' },
  { pattern: 'GRADLE_USER_HOME', why: 'a non-default gradle cache' },
  { pattern: 'MAVEN_OPTS', why: 'JVM options the user builds with' },
  { pattern: 'NVM_DIR', why: 'nvm shims locate installed Node versions' },
  { pattern: 'NVM_BIN', why: 'the active nvm Node' },
  { pattern: 'VOLTA_HOME', why: 'volta shims locate toolchains' },
  { pattern: 'FNM_*', why: 'fnm shims locate the active Node' },
  { pattern: 'PNPM_HOME', why: 'globally installed pnpm binaries live there' },
  { pattern: 'BUN_INSTALL', why: 'bun and its global binaries' },
  { pattern: 'DENO_INSTALL', why: 'deno and its installed scripts' },
  { pattern: 'VIRTUAL_ENV', why: 'the active Python virtualenv' },
  { pattern: 'CONDA_*', why: 'the active conda environment' },
  { pattern: 'PYENV_*', why: 'pyenv shims pick the Python version' },
  { pattern: 'PIPX_*', why: 'where pipx keeps apps' },
  { pattern: 'POETRY_HOME', why: 'a non-default poetry install' },
  { pattern: 'UV_*', why: 'uv cache and Python install dirs (index credentials excluded below)' },
  { pattern: 'RBENV_ROOT', why: 'rbenv shims pick the Ruby version' },
  { pattern: 'GEM_HOME', why: 'where gems install' },
  { pattern: 'GEM_PATH', why: 'where gems are found' },
  { pattern: 'GOPATH', why: 'go modules and installed binaries' },
  { pattern: 'GOROOT', why: 'a non-default Go toolchain' },
  { pattern: 'GOBIN', why: 'where go install puts binaries' },
  { pattern: 'CARGO_HOME', why: 'cargo and installed crates' },
  { pattern: 'RUSTUP_HOME', why: 'rustup toolchains' },
  { pattern: 'MISE_*', why: 'mise shims and activated tool versions' },
  { pattern: 'ASDF_*', why: 'asdf shims and data dir' },
  { pattern: 'DIRENV_*', why: 'direnv state of the directory the shell started in' },
  { pattern: 'HOMEBREW_*', why: 'brew prefix, repository and behaviour switches' },
  { pattern: 'MANPATH', why: 'man pages of user-installed tools' },
  { pattern: 'INFOPATH', why: 'info pages of user-installed tools' },
  { pattern: 'PKG_CONFIG_PATH', why: 'native builds find user-installed libraries' },
  { pattern: 'NIX_*', why: 'nix profiles and paths' },
]

/**
 * Names that look allowlisted but carry credentials (UV_INDEX_*_PASSWORD, CONDA_*_TOKEN…):
 * the allowlist is for locations and choices, never secrets.
 */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|PRIVATE_?KEY|AUTH(?!_SOCK))/i

const MATCHERS = LOGIN_ENV_ALLOWLIST.map(({ pattern }) =>
  pattern.endsWith('*') ? { prefix: pattern.slice(0, -1) } : { exact: pattern },
)

export function isAllowlistedLoginEnvKey(key: string): boolean {
  if (SECRET_NAME.test(key)) return false
  return MATCHERS.some((m) => ('prefix' in m ? key.startsWith(m.prefix as string) : key === m.exact))
}
