import { buildChildEnv } from '../../core/env/child-env'
import { describeEnvironmentNames } from '../../core/env/environment-names'
import { mergeLoginShellEnv } from '../../core/env/login-env-merge'
import { captureLoginShellEnv, type LoginShellEnvReport } from '../../core/env/login-shell-capture'
import { PROXY_ENV_KEYS } from '../../core/env/network-egress-env'
import { redactProxyUrl } from '../../core/env/redact-env'
import { readSealedEnv, sanitizeEntryEnvDetailed } from '../../core/env/sanitize-entry'
import { resolveShellgateHome } from '../../core/paths'
import { openSettingsStore } from '../../core/settings/settings-store'
import { parseCommandArgs } from '../args'
import type { CliCommand } from '../command'
import { UsageError } from '../usage-error'

const USAGE = [
  'Usage: shellgate env [--json]',
  '',
  '  What commands would see of this environment: the login-shell capture (status, shell, duration,',
  '  adopted names), the names sealed or dropped at entry, withheld from agent commands (credential-like',
  '  names; environment.passThrough in settings.json lets named ones through) or also removed for',
  '  commands run without asking (code-injection variables), and the network and locale settings',
  '  children get (network settings from SHELLGATE_HOME/settings.json count). Names only: values are never printed, except proxy URLs with credentials cut out.',
].join('\n')

/** Proxy URLs are shown without credentials; every other sealed value is only said to be set. */
function redactSealed(sealed: Record<string, string>): Record<string, string> {
  const proxyNames = new Set(PROXY_ENV_KEYS.map((k) => k.toUpperCase()))
  const shown: Record<string, string> = {}
  for (const [key, value] of Object.entries(sealed)) {
    shown[key] = proxyNames.has(key.toUpperCase()) || /proxy$/i.test(key) ? redactProxyUrl(value) : '(set)'
  }
  return shown
}

export const envCommand: CliCommand = {
  usage: USAGE,
  async run(argv, io) {
    const { flags, positionals, rest } = parseCommandArgs('env', argv, { json: { type: 'boolean' } })
    if (positionals.length > 0 || rest !== null) throw new UsageError('shellgate env: takes no arguments')
    const platform = process.platform
    // The CLI entry already sanitised process.env; a caller passing a raw env (tests, embedding) gets the same.
    const entry = sanitizeEntryEnvDetailed(io.env, platform)
    const capture = await captureLoginShellEnv({ env: entry.env, platform })
    const store = await openSettingsStore({ home: resolveShellgateHome(entry.env), workspace: io.cwd })
    const { passThrough } = store.user().environment
    // What the app runs commands from: the entry env with the capture merged in, so a proxy or CA
    // set only in the rc files is among the sealed names and reaches the children here too.
    const runtimeEnv = mergeLoginShellEnv(entry.env, capture, platform)
    // The same names Settings → Environment shows (env.report), from the same function.
    const names = describeEnvironmentNames({ entryEnv: io.env, runtimeEnv, passThrough, platform })
    const { sealedKeys, droppedKeys } = names.entry
    const child = buildChildEnv(runtimeEnv, { platform, network: store.user().network, passThrough })
    const proxy =
      child.env.HTTPS_PROXY ?? child.env.https_proxy ?? child.env.HTTP_PROXY ?? child.env.http_proxy
    const report = {
      loginShell: capture.report,
      entry: { sealedKeys, droppedKeys },
      withheldKeys: names.withheldKeys,
      passedThroughKeys: names.passedThroughKeys,
      autoRunRemovedKeys: names.autoRunRemovedKeys,
      sealed: redactSealed(readSealedEnv(runtimeEnv)),
      children: {
        proxy: proxy ? redactProxyUrl(proxy) : null,
        noProxy: child.env.NO_PROXY ?? child.env.no_proxy ?? null,
        caCertFile: child.env.NODE_EXTRA_CA_CERTS ? '(set)' : null,
        locale: child.env.LC_ALL ?? child.env.LC_CTYPE ?? child.env.LANG ?? null,
        problems: [
          ...store.warnings().map((w) => `${w.file}: ${w.reason}`),
          ...child.problems.map((p) => p.message),
        ],
      },
    }
    if (flags.json) {
      io.stdout(`${JSON.stringify(report)}\n`)
      return 0
    }
    io.stdout(`${describeCapture(capture.report)}\n`)
    io.stdout(`Sealed at entry (children get them back): ${sealedKeys.join(', ') || 'none'}\n`)
    io.stdout(`Dropped at entry: ${droppedKeys.join(', ') || 'none'}\n`)
    io.stdout(`Withheld from agent commands: ${names.withheldKeys.join(', ') || 'none'}\n`)
    io.stdout(`Passed through (environment.passThrough): ${names.passedThroughKeys.join(', ') || 'none'}\n`)
    io.stdout(
      `Also removed for commands run without asking: ${names.autoRunRemovedKeys.join(', ') || 'none'}\n`,
    )
    io.stdout(
      `Children: proxy ${report.children.proxy ?? 'none'}, NO_PROXY ${report.children.noProxy ?? 'none'}, `,
    )
    io.stdout(`locale ${report.children.locale ?? 'unset'}\n`)
    for (const problem of report.children.problems) io.stdout(`Problem: ${problem}\n`)
    return 0
  },
}

function describeCapture(report: LoginShellEnvReport): string {
  const head = `Login shell: ${report.status}${report.shell ? ` (${report.shell}, ${report.durationMs} ms)` : ''}`
  const lines = [head, `  adopted: ${report.keys.join(', ') || 'none'}`]
  if (report.sealedKeys.length > 0) lines.push(`  sealed from rc files: ${report.sealedKeys.join(', ')}`)
  if (report.pathPatched) lines.push('  PATH was patched without running a shell')
  for (const message of report.messages) lines.push(`  ${message}`)
  return lines.join('\n')
}
