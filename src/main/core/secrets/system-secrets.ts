/**
 * The one list of places outside the home folder that hold secrets (issue 19): the sandbox mounts
 * /etc for the tools that read it (passwd, hosts, ssl/certs, resolv.conf) and never these; the
 * verdict can ask before a command reads them. A sandboxed command runs as the person, and often
 * as root, which owns every one of them.
 *
 * `path` is absolute; a folder covers everything in it. `names` narrows an entry to the files in
 * that folder whose name matches (ssh's host keys, not its public halves or ssh_config).
 */
export interface SystemSecret {
  path: string
  names?: RegExp
  why: string
}

export const SYSTEM_SECRETS: readonly SystemSecret[] = [
  { path: '/etc/shadow', why: 'password hashes' },
  { path: '/etc/shadow-', why: 'password hashes (backup)' },
  { path: '/etc/gshadow', why: 'group password hashes' },
  { path: '/etc/gshadow-', why: 'group password hashes (backup)' },
  { path: '/etc/security/opasswd', why: 'old password hashes' },
  { path: '/etc/sudoers', why: "who may become root, and how: an attacker's map" },
  { path: '/etc/sudoers.d', why: "who may become root, and how: an attacker's map" },
  { path: '/etc/ssh', names: /^ssh_host_.*_key$/, why: "the machine's ssh host private keys" },
  { path: '/etc/ssl/private', why: 'TLS private keys' },
  { path: '/etc/pki/tls/private', why: 'TLS private keys (Red Hat layout)' },
  { path: '/etc/letsencrypt', why: "Let's Encrypt account and certificate keys" },
  { path: '/etc/krb5.keytab', why: 'Kerberos service keys' },
  { path: '/etc/ipsec.secrets', why: 'IPsec pre-shared keys' },
  { path: '/etc/ipsec.d/private', why: 'IPsec private keys' },
  { path: '/etc/ppp/chap-secrets', why: 'PPP passwords' },
  { path: '/etc/ppp/pap-secrets', why: 'PPP passwords' },
  { path: '/etc/NetworkManager/system-connections', why: 'Wi-Fi and VPN passwords' },
  { path: '/etc/wpa_supplicant', why: 'Wi-Fi passwords' },
  { path: '/etc/openvpn', why: 'VPN keys and passwords' },
  { path: '/etc/wireguard', why: 'WireGuard private keys' },
  { path: '/etc/credstore', why: 'systemd service credentials' },
  { path: '/etc/credstore.encrypted', why: 'systemd service credentials' },
  { path: '/etc/docker/key.json', why: "the Docker daemon's identity key" },
  { path: '/etc/libvirt/secrets', why: 'libvirt secrets' },
  { path: '/etc/cups/ssl', why: "the print server's TLS key" },
  // macOS spells /etc as /private/etc.
  { path: '/private/etc/sudoers', why: "who may become root, and how: an attacker's map" },
  { path: '/private/etc/sudoers.d', why: "who may become root, and how: an attacker's map" },
  { path: '/private/etc/ssh', names: /^ssh_host_.*_key$/, why: "the machine's ssh host private keys" },
  { path: '/private/etc/master.passwd', why: 'password hashes (macOS)' },
  { path: '/private/var/db/dslocal', why: 'local accounts and their password hashes (macOS)' },
]

/**
 * Files in /etc that tools read for their settings and that may carry a credential in their value
 * (`//registry/:_authToken=…`, a `credential.helper`, an index URL with a password): the sandbox
 * mounts each only when what it holds is free of credentials, as it does the home folder's.
 */
export const SYSTEM_CONFIG_WITH_CREDENTIALS: readonly string[] = [
  '/etc/gitconfig',
  '/etc/npmrc',
  '/etc/pip.conf',
  '/etc/xdg/pip/pip.conf',
  '/etc/wgetrc',
]
