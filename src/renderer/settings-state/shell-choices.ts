import type { ShellKind } from '../../shared/settings'

export interface ShellChoice {
  kind: ShellKind
  label: string
}

/** What the user may pick depends on the machine main runs on, as shells.list reports it. */
export function shellChoices(platform: string): ShellChoice[] {
  if (platform === 'win32')
    return [
      { kind: 'auto', label: 'Auto' },
      { kind: 'git-bash', label: 'Git Bash' },
      { kind: 'cmd', label: 'CMD' },
    ]
  return [
    { kind: 'auto', label: 'Auto' },
    { kind: 'bash', label: 'bash' },
    { kind: 'zsh', label: 'zsh' },
  ]
}
