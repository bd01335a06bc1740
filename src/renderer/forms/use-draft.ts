import { useState } from 'react'

export interface Draft<F extends string> {
  /** What each field shows: the person's typing where there is some, else the saved value. */
  values: Record<F, string>
  edit(name: F, value: string): void
  /** After a save: every field shows the saved value again. */
  clear(): void
}

/**
 * A settings form's fields as saved, with only what the person typed kept on top. Settings
 * snapshots arrive at any time (a panel's reload when it opens, the session chosen after load, a
 * mode switched in the frame, another window): a new one updates the untouched fields and never
 * overwrites typing that has not been saved, which Save would then silently not save.
 */
export function useDraft<F extends string>(saved: Record<F, string>): Draft<F> {
  const [edits, setEdits] = useState<Partial<Record<F, string>>>({})
  return {
    values: { ...saved, ...edits },
    edit: (name, value) => setEdits((now) => ({ ...now, [name]: value })),
    clear: () => setEdits({}),
  }
}
