import { useEffect, useState } from 'react'

export const SCREENS = [
  { id: 'session', label: 'Conversations' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'approvals', label: 'Approvals' },
  { id: 'settings', label: 'Settings' },
] as const

export type ScreenId = (typeof SCREENS)[number]['id']

function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split('/')[0]
  return SCREENS.find((screen) => screen.id === id)?.id ?? 'session'
}

/** Hash routing: changing screens never navigates the window (navigation is denied in Electron). */
export function useScreen(): [ScreenId, (screen: ScreenId) => void] {
  const [screen, setScreen] = useState<ScreenId>(() => screenFromHash(location.hash))
  useEffect(() => {
    const onHashChange = () => setScreen(screenFromHash(location.hash))
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
  }, [])
  return [screen, (next) => (location.hash = `#/${next}`)]
}
