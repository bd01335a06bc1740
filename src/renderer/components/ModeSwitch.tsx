import { useEffect, useRef, useState } from 'react'
import type { PermissionMode } from '../../shared/settings'
import { errorMessage } from '../forms/field-errors'
import { useClient } from '../rpc'
import { useSettings } from '../settings-state/SettingsProvider'

export const MODE_SHORTCUT = 'Alt+M'

const MODES: ReadonlyArray<{ mode: PermissionMode; says: string }> = [
  { mode: 'build', says: 'read-only commands run, the rest asks' },
  { mode: 'plan', says: 'read-only commands run, the rest is denied' },
  { mode: 'yolo', says: 'everything runs without asking' },
]

/**
 * The permission mode, always in the frame, and the one control that switches it. Alt+M moves
 * between build and plan from anywhere; yolo is never reached by a key, only by clicking it and
 * confirming, because passing over it must not switch it on.
 */
export function ModeSwitch() {
  const client = useClient()
  const { snapshot, apply } = useSettings()
  const [confirmYolo, setConfirmYolo] = useState(false)
  const [error, setError] = useState<string>()
  const [said, setSaid] = useState<string>()
  const mode = snapshot?.user.permissions.mode
  const latest = useRef(mode)
  latest.current = mode

  const choose = (next: PermissionMode) => {
    setError(undefined)
    setConfirmYolo(false)
    client.request('settings.setMode', { mode: next }).then(
      (saved) => {
        apply(saved)
        setSaid(`Mode is now ${next}: ${MODES.find((m) => m.mode === next)?.says}.`)
      },
      (failure: unknown) => setError(errorMessage(failure)),
    )
  }
  const chooseRef = useRef(choose)
  chooseRef.current = choose

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== 'KeyM' || event.repeat) return
      event.preventDefault()
      // Before the settings arrive the mode is unknown: switching "away" from it could be a switch to it.
      if (latest.current === undefined) return
      chooseRef.current(latest.current === 'build' ? 'plan' : 'build')
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  // Until the settings arrive the switch keeps its place with its buttons disabled: appearing later
  // would push the nav links down under a click already on its way (the click would then be lost,
  // or land on a mode button).
  return (
    <div className="mode-switch" data-mode={mode} aria-busy={mode === undefined}>
      <fieldset className="mode-buttons" aria-label="Mode" aria-keyshortcuts={MODE_SHORTCUT}>
        <legend>
          Mode <span className="kbd">{MODE_SHORTCUT}</span>
        </legend>
        {MODES.map((option) => (
          <button
            key={option.mode}
            type="button"
            aria-pressed={mode === option.mode}
            disabled={mode === undefined}
            title={option.says}
            className={option.mode === 'yolo' && mode === 'yolo' ? 'danger' : undefined}
            onClick={() => {
              if (option.mode === mode) return
              if (option.mode === 'yolo') setConfirmYolo(true)
              else choose(option.mode)
            }}
          >
            {option.mode}
          </button>
        ))}
      </fieldset>
      {confirmYolo && <YoloConfirm onConfirm={() => choose('yolo')} onCancel={() => setConfirmYolo(false)} />}
      <p className="visually-hidden" role="status">
        {said}
      </p>
      {error && <p role="alert">{error}</p>}
    </div>
  )
}

/**
 * The yolo question, in a modal dialog over the whole window rather than squeezed into the sidebar:
 * it is the one switch that turns every question off. Cancel has the focus; Esc cancels.
 */
function YoloConfirm({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    element.showModal()
    cancel.current?.focus()
    return () => element.close()
  }, [])
  return (
    <dialog
      ref={dialog}
      className="yolo-dialog"
      aria-labelledby="yolo-dialog-title"
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <fieldset aria-label="Switch to yolo?" className="close-confirm">
        <h2 id="yolo-dialog-title">Switch to yolo?</h2>
        <p>
          yolo runs every command without asking, from every agent (deny and ask rules still apply). A banner
          says so on every screen until you switch back.
        </p>
        <button type="button" className="danger" onClick={onConfirm}>
          Switch to yolo
        </button>{' '}
        <button type="button" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
      </fieldset>
    </dialog>
  )
}
