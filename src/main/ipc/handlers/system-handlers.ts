import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { findCaHints, isCertificateFailure } from '../../core/network/ca-hints'
import { resolveNetworkConfig } from '../../core/network/network-config'
import { testConnection } from '../../core/network/test-connection'
import { describeUrlRoute } from '../../core/network/url-route'
import { discoverShells } from '../../core/shell/discover'
import { SHELL_DISPLAY_NAMES, type ShellCandidate } from '../../core/shell/types'
import type { Handlers } from '../dispatcher'

type SystemHandlers = Pick<
  Handlers<ShellgateContract>,
  'app.about' | 'shells.list' | 'env.report' | 'network.route' | 'network.test' | 'audit.query'
>

/** "Test connection" answers within this, whatever network.timeout says for real requests. */
const CONNECTION_TEST_TIMEOUT_MS = 15_000

export function systemHandlers(core: Core): SystemHandlers {
  let connectionTestRunning = false
  let auditScans: Promise<unknown> = Promise.resolve()
  const networkInput = async () => ({ settings: core.settings.user(), env: await core.environment.ready() })
  return {
    'app.about': (_input, context) => core.about(context.transport),
    'shells.list': async () => {
      const discovery = discoverShells({
        platform: core.platform,
        env: await core.environment.ready(),
        settings: core.settings.user().shell,
      })
      const view = (candidate: ShellCandidate) => ({
        path: candidate.path,
        name: SHELL_DISPLAY_NAMES[candidate.dialect],
        kind: candidate.dialect,
        available: true,
        source: candidate.foundIn,
      })
      const { selection } = discovery
      return {
        platform: core.platform,
        candidates: discovery.candidates.map(view),
        selected: view({ dialect: selection.dialect, path: selection.path, foundIn: selection.source }),
        why: [selection.reason, ...discovery.problems].join(' '),
      }
    },
    'env.report': () => core.environment.report(),
    'network.route': async ({ url }) => describeUrlRoute({ url, ...(await networkInput()) }),
    'network.test': async ({ url }) => {
      // A UI may ask for tests as fast as it likes; main makes one at a time, briefly.
      if (connectionTestRunning)
        throw new RpcError('denied', 'network.test: a connection test is already running')
      connectionTestRunning = true
      const report = await (async () => {
        const config = resolveNetworkConfig(await networkInput())
        const timeoutMs = {
          ...config.timeoutMs,
          value: Math.min(config.timeoutMs.value, CONNECTION_TEST_TIMEOUT_MS),
        }
        return testConnection({ url, config: { ...config, timeoutMs } })
      })().finally(() => {
        connectionTestRunning = false
      })
      return report.status === 'ok'
        ? {
            status: 'ok',
            url: report.url,
            httpStatus: report.httpStatus,
            bytes: report.bytes,
            traceId: report.traceId,
          }
        : {
            status: report.status,
            url: report.url,
            code: report.code,
            reason: report.reason,
            traceId: report.traceId,
            ...(report.status === 'error' && isCertificateFailure(report.reason)
              ? {
                  caHints: findCaHints(
                    await core.environment.ready(),
                    core.settings.user().network.caCertFile ?? undefined,
                  ),
                }
              : {}),
          }
    },
    'audit.query': (filter) => {
      // Each query streams the whole log: they run one after another, so a client cannot stack scans.
      const scan = auditScans.then(() => core.audit.read(filter))
      auditScans = scan.catch(() => undefined)
      return scan
    },
  }
}
