import type { ReactNode } from 'react'

/** An honest empty screen: says what will be here and why it is empty now. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <h2>{title}</h2>
      <p>{children}</p>
    </section>
  )
}
