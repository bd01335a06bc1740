/**
 * The one list of places under the home directory that hold credentials (issues 19 and 21): the
 * verdict asks before a command reads any of them, and the sandbox never mounts them, whatever a
 * setting adds. Each entry says why, because every line here is a file some tool would break
 * without, and the reason is what keeps it on the list.
 *
 * Paths are relative to the home directory, `/`-separated; a folder covers everything in it.
 */
export interface HomeSecret {
  path: string
  why: string
}

export const HOME_SECRETS: readonly HomeSecret[] = [
  // Keys and tokens of the tools every developer has.
  { path: '.ssh', why: 'ssh private keys and known hosts' },
  { path: '.gnupg', why: 'gpg private keys' },
  { path: '.git-credentials', why: "git's stored passwords and tokens (credential.helper store)" },
  { path: '.netrc', why: 'passwords curl, git and ftp send to hosts' },
  { path: '_netrc', why: 'passwords curl, git and ftp send to hosts (Windows spelling)' },
  { path: '.npmrc', why: 'npm registry tokens' },
  { path: '.yarnrc.yml', why: 'Yarn registry tokens (npmAuthToken)' },
  { path: '.pypirc', why: 'PyPI upload passwords and tokens' },
  { path: '.gem/credentials', why: 'RubyGems API key' },
  { path: '.cargo/credentials', why: 'crates.io token' },
  { path: '.cargo/credentials.toml', why: 'crates.io token' },
  { path: '.config/gh', why: 'GitHub CLI tokens' },
  { path: '.config/glab-cli', why: 'GitLab CLI tokens' },
  { path: '.config/hub', why: 'hub (GitHub) tokens' },
  { path: '.password-store', why: 'pass password store' },
  { path: '.local/share/keyrings', why: 'the desktop keyring' },
  { path: '.pki', why: 'the NSS certificate and key database' },
  { path: '.pgpass', why: 'PostgreSQL passwords' },
  { path: '.my.cnf', why: 'MySQL passwords' },
  { path: '.vault-token', why: 'HashiCorp Vault token' },
  // Clouds and clusters.
  { path: '.aws', why: 'AWS access keys' },
  { path: '.azure', why: 'Azure CLI tokens' },
  { path: '.config/gcloud', why: 'Google Cloud credentials' },
  { path: '.oci', why: 'Oracle Cloud keys' },
  { path: '.kube', why: 'Kubernetes cluster credentials' },
  { path: '.docker', why: 'registry logins (config.json) and the Docker Desktop socket' },
  { path: '.terraform.d/credentials.tfrc.json', why: 'Terraform Cloud tokens' },
  { path: '.s3cfg', why: 's3cmd keys' },
  { path: '.boto', why: 'gsutil and boto keys' },
  { path: '.config/rclone', why: 'rclone remotes and their passwords' },
  { path: '.config/doctl', why: 'DigitalOcean token' },
  { path: '.databrickscfg', why: 'Databricks tokens' },
  { path: '.config/op', why: '1Password CLI sessions' },
  { path: '.1password', why: '1Password ssh agent socket' },
  // Browsers: cookies and saved passwords, and browser mode's session key (issue 19's takeover).
  { path: '.config/chromium', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.config/google-chrome', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.config/google-chrome-beta', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.config/BraveSoftware', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.config/microsoft-edge', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.config/vivaldi', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.mozilla', why: 'browser profile: cookies, passwords, session storage' },
  { path: 'snap/chromium', why: 'browser profile: cookies, passwords, session storage' },
  { path: 'snap/firefox', why: 'browser profile: cookies, passwords, session storage' },
  { path: '.var/app', why: 'Flatpak apps, browsers among them' },
  { path: 'Library/Application Support/Google/Chrome', why: 'browser profile (macOS)' },
  { path: 'Library/Application Support/Chromium', why: 'browser profile (macOS)' },
  { path: 'Library/Application Support/Firefox', why: 'browser profile (macOS)' },
  { path: 'Library/Application Support/BraveSoftware', why: 'browser profile (macOS)' },
  { path: 'Library/Safari', why: 'browser profile (macOS)' },
  { path: 'Library/Cookies', why: 'cookies (macOS)' },
  { path: 'Library/Keychains', why: 'the keychain (macOS)' },
  // Agents' own tokens.
  { path: '.claude', why: "Claude Code's login (.credentials.json) and transcripts" },
  { path: '.claude.json', why: "Claude Code's account and project settings" },
  { path: '.codex', why: "Codex's login (auth.json) and sessions" },
  { path: '.gemini', why: "Gemini CLI's login (oauth_creds.json)" },
  { path: '.config/github-copilot', why: 'GitHub Copilot tokens' },
  { path: '.cursor', why: "Cursor's settings and MCP tokens" },
  { path: '.config/Code/User/globalStorage', why: "VS Code extensions' stored tokens" },
  // What people typed: passwords pasted at prompts, tokens in curl lines.
  { path: '.bash_history', why: 'shell history' },
  { path: '.zsh_history', why: 'shell history' },
  { path: '.zhistory', why: 'shell history' },
  { path: '.local/share/fish/fish_history', why: 'shell history' },
  { path: '.python_history', why: 'REPL history' },
  { path: '.node_repl_history', why: 'REPL history' },
  { path: '.psql_history', why: 'psql history' },
  { path: '.mysql_history', why: 'mysql history' },
  { path: '.lesshst', why: 'less search history' },
  { path: '.local/share/atuin', why: 'shell history' },
]

/** The relative paths alone, for code that only needs where. */
export const HOME_SECRET_PATHS: readonly string[] = HOME_SECRETS.map((secret) => secret.path)

/** True for a home-relative path (`/`-separated) that is one of HOME_SECRET_PATHS or inside one. */
export function isHomeSecret(relative: string): boolean {
  return HOME_SECRET_PATHS.some((secret) => relative === secret || relative.startsWith(`${secret}/`))
}
