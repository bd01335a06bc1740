import { useEffect, useState } from 'react'

export const SETTINGS_SECTIONS = [
  'Shell',
  'Permissions',
  'Network',
  'Environment',
  'Sandbox',
  'Agents',
  'Notifications',
  'Audit',
  'About',
] as const
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]

function sectionFromHash(hash: string): SettingsSection {
  const [screen, part] = hash.replace(/^#\/?/, '').split('/')
  if (screen !== 'settings') return 'Shell'
  return SETTINGS_SECTIONS.find((section) => section.toLowerCase() === part) ?? 'Shell'
}

/** The open section lives in the hash (#/settings/network), so reloads and links keep it. */
export function useSettingsSection(): [SettingsSection, (section: SettingsSection) => void] {
  const [section, setSection] = useState<SettingsSection>(() => sectionFromHash(location.hash))
  useEffect(() => {
    const onHashChange = () => setSection(sectionFromHash(location.hash))
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
  }, [])
  return [
    section,
    (next) => {
      location.hash = `#/settings/${next.toLowerCase()}`
      setSection(next)
    },
  ]
}
