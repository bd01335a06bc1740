import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import {
  type ApprovalNoticeInput,
  approvalNotice,
  HOOK_WAIT_NOTICE_MS,
  stillWaitingNotice,
  waitsOnHook,
} from '../../shared/approval-notice'
import type { PendingApproval } from '../../shared/ipc/domains/approvals'
import type { Session } from '../../shared/ipc/domains/sessions'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { useEvent } from '../events/use-event'
import { useClient } from '../rpc'
import { useLiveCalls } from '../session/LiveCallsProvider'
import { useSessions } from '../session/SessionsProvider'
import { chimeReady, playChime, unlockChime } from './approval-chime'
import { useSoundPreference } from './desk-prefs'
import { useFaviconBadge } from './favicon'
import {
  type NoticePermission,
  noticePermission,
  notificationWorker,
  showNotice,
  workerHasButtons,
} from './notice-display'

export interface DeskNotifications {
  /** electron: main shows them (Electron's Notification); browser: this page, once permitted. */
  runtime: 'electron' | 'browser'
  permission: NoticePermission
  /** Whether a notification carries Allow once and Deny here. */
  buttons: boolean
  /** Asks the browser, from a click only (a page may not ask unprompted). */
  enable(): Promise<void>
  sound: boolean
  setSound(on: boolean): void
  /** The sound is on, but the browser keeps it silent until the next click on this page. */
  soundBlocked: boolean
}

const NotificationsContext = createContext<DeskNotifications | null>(null)

function agentLabel(session: Session | undefined): string | null {
  return session?.agent ? [session.agent.name, session.agent.version].filter(Boolean).join(' ') : null
}

/** Nobody is looking: the page is hidden or another window has the focus. */
function unattended(): boolean {
  return document.visibilityState === 'hidden' || !document.hasFocus()
}

/**
 * Noticed at once (issue 22.6): a notification for each new approval while nobody is looking (with
 * Allow once and Deny where the platform has buttons), a second one when a hook has waited
 * HOOK_WAIT_NOTICE_MS, the count on the tab's icon, and an optional chime.
 */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const client = useClient()
  const { pending, forget } = usePendingApprovals()
  const { sessions } = useSessions()
  const live = useLiveCalls()
  const runtime = window.shellgate ? 'electron' : 'browser'
  const [permission, setPermission] = useState<NoticePermission>(noticePermission)
  const [worker, setWorker] = useState<ServiceWorkerRegistration | null>(null)
  const [sound, setSoundPreference] = useSoundPreference()
  const [soundBlocked, setSoundBlocked] = useState(false)
  const latest = useRef({ pending, sessions, live, worker, sound })
  latest.current = { pending, sessions, live, worker, sound }
  useFaviconBadge(pending?.length ?? 0)

  useEffect(() => {
    if (runtime !== 'browser' || permission !== 'granted') return
    let current = true
    void notificationWorker().then((registration) => current && setWorker(registration))
    return () => {
      current = false
    }
  }, [runtime, permission])

  const inputOf = useCallback((approval: PendingApproval): ApprovalNoticeInput => {
    const session = latest.current.sessions?.find((s) => s.id === approval.sessionId)
    return { id: approval.id, command: approval.command, cwd: approval.cwd, agent: agentLabel(session) }
  }, [])

  useEvent('approvals.requested', (approval) => {
    const session = latest.current.sessions?.find((s) => s.id === approval.sessionId)
    // The person's own command from this desk: they are looking at it.
    if (session?.origin === 'person') return
    if (latest.current.sound && !playChime()) setSoundBlocked(true)
    if (runtime !== 'browser' || !unattended()) return
    const { worker: registration } = latest.current
    void showNotice(
      approvalNotice(inputOf(approval), workerHasButtons(registration)),
      approval.id,
      registration,
    )
  })

  // A hook's client gives up on its own clock: a second notice at HOOK_WAIT_NOTICE_MS.
  const noticed = useRef(new Set<string>())
  const hookWaits = (pending ?? []).filter((approval) => {
    const session = sessions?.find((s) => s.id === approval.sessionId)
    const via = live.bySession.get(approval.sessionId)?.find((call) => call.id === approval.callId)?.via
    return session?.origin === 'agent' && waitsOnHook(via, session.channels)
  })
  const hookKey = hookWaits.map((approval) => approval.id).join('\n')
  // biome-ignore lint/correctness/useExhaustiveDependencies: hookKey stands for hookWaits.
  useEffect(() => {
    const timers = hookWaits
      .filter((approval) => !noticed.current.has(approval.id))
      .map((approval) =>
        window.setTimeout(
          () => {
            if (!latest.current.pending?.some((p) => p.id === approval.id)) return
            noticed.current.add(approval.id)
            if (latest.current.sound) playChime()
            if (runtime !== 'browser' || !unattended()) return
            const registration = latest.current.worker
            void showNotice(
              stillWaitingNotice(inputOf(approval), workerHasButtons(registration)),
              approval.id,
              registration,
            )
          },
          Math.max(0, Date.parse(approval.requestedAt) + HOOK_WAIT_NOTICE_MS - Date.now()),
        ),
      )
    return () => {
      for (const timer of timers) window.clearTimeout(timer)
    }
  }, [hookKey])

  // A click on a notification's button is the person's answer, for an approval this page has waiting.
  useEffect(() => {
    if (runtime !== 'browser' || !('serviceWorker' in navigator)) return
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; approvalId?: unknown; action?: unknown } | null
      if (data?.type !== 'shellgate.notification' || typeof data.approvalId !== 'string') return
      const approvalId = data.approvalId
      if (!latest.current.pending?.some((approval) => approval.id === approvalId)) return
      if (data.action !== 'allow_once' && data.action !== 'deny') {
        location.hash = '#/approvals'
        return
      }
      client.request('approvals.answer', { id: approvalId, answer: { kind: data.action } }).then(
        () => forget(approvalId),
        // Answered meanwhile (another page, the card): the card says so, or is gone already.
        () => undefined,
      )
    }
    navigator.serviceWorker.addEventListener('message', onMessage)
    return () => navigator.serviceWorker.removeEventListener('message', onMessage)
  }, [runtime, client, forget])

  const enable = useCallback(async () => {
    if (typeof Notification === 'undefined') return
    setPermission(await Notification.requestPermission())
  }, [])
  const setSound = useCallback(
    (on: boolean) => {
      setSoundPreference(on)
      // The checkbox's click is what lets the page play sound later.
      if (on) setSoundBlocked(!unlockChime())
    },
    [setSoundPreference],
  )
  // Any click after a reload unlocks the chime again; until then the setting says it is blocked.
  useEffect(() => {
    if (!sound) return
    setSoundBlocked(!chimeReady())
    const onClick = () => {
      unlockChime()
      setSoundBlocked(false)
    }
    document.addEventListener('click', onClick, { once: true })
    return () => document.removeEventListener('click', onClick)
  }, [sound])

  const value = useMemo(
    () => ({
      runtime,
      permission,
      buttons: runtime === 'electron' ? false : workerHasButtons(worker),
      enable,
      sound,
      setSound,
      soundBlocked,
    }),
    [runtime, permission, worker, enable, sound, setSound, soundBlocked],
  ) satisfies DeskNotifications
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>
}

export function useDeskNotifications(): DeskNotifications {
  const state = useContext(NotificationsContext)
  if (!state) throw new Error('useDeskNotifications outside <NotificationsProvider>')
  return state
}
