import { sanitizeProcessEnvInPlace } from './core/env/sanitize-entry'

// The Electron entry. Before anything else is loaded: proxies and certificates are sealed for
// children, NODE_ENV and telemetry variables dropped, so no module can read them at import time.
sanitizeProcessEnvInPlace(process.env, process.platform)
await import('./electron-app')
