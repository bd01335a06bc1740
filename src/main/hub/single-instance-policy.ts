/**
 * What the Electron app does at start and when a second copy is launched. Pure so every branch is
 * table-tested; electron-app.ts only carries the decision out.
 */
export type ElectronStartDecision =
  /** Another app window holds Electron's lock; it gets `second-instance` and focuses itself. */
  | { action: 'quit'; reason: string }
  /** This process is the one core of SHELLGATE_HOME: it serves the hub endpoint. */
  | { action: 'become-hub' }
  /** `shellgate serve` is the hub of this home: open its UI instead of starting a second core. */
  | { action: 'open-running-hub'; reason: string }
  /** The endpoint is unusable (foreign, unsafe run/): say why and start nothing. */
  | { action: 'refuse'; reason: string }

export function decideElectronStart(input: {
  gotSingleInstanceLock: boolean
  hub: { kind: 'claimed' } | { kind: 'running'; pid: number | null } | { kind: 'refused'; message: string }
}): ElectronStartDecision {
  if (!input.gotSingleInstanceLock)
    return { action: 'quit', reason: 'Shellgate is already open; its window was brought to the front' }
  if (input.hub.kind === 'claimed') return { action: 'become-hub' }
  if (input.hub.kind === 'running') {
    const who = input.hub.pid === null ? 'another process' : `process ${input.hub.pid}`
    return {
      action: 'open-running-hub',
      reason: `Shellgate is already running for this data folder (${who}, e.g. shellgate serve); opening its UI`,
    }
  }
  return { action: 'refuse', reason: input.hub.message }
}

export type WindowStep = 'create' | 'restore' | 'show' | 'focus'

/** A second launch brings the existing window back, whatever state it is in. */
export function secondInstanceSteps(window: {
  exists: boolean
  minimized: boolean
  visible: boolean
}): WindowStep[] {
  if (!window.exists) return ['create', 'focus']
  return [
    ...(window.minimized ? (['restore'] as const) : []),
    ...(window.visible ? [] : (['show'] as const)),
    'focus',
  ]
}
