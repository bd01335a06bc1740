import { Component, type ReactNode } from 'react'

interface State {
  error: Error | null
}

/**
 * A screen that throws while rendering shows what broke instead of blanking the whole window; the
 * navigation stays usable and switching screens resets it (keyed by screen in App).
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <section className="panel" role="alert" aria-label="Screen error">
        <h2>This screen could not be shown</h2>
        <p>{this.state.error.message}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    )
  }
}
