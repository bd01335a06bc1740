import { useCallback, useState } from 'react'

/**
 * The desk's own preferences, kept in this window's origin (localStorage): they are about this
 * screen and these speakers, not about what runs. A browser keeps them per address, so a
 * Shellgate served on another port starts from the defaults (as its notification permission does).
 */
const SOUND_KEY = 'shellgate.desk.sound'

export function useSoundPreference(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => localStorage.getItem(SOUND_KEY) === 'on')
  const set = useCallback((next: boolean) => {
    localStorage.setItem(SOUND_KEY, next ? 'on' : 'off')
    setOn(next)
  }, [])
  return [on, set]
}
