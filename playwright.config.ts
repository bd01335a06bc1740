import { defineConfig } from '@playwright/test'
import { findElectronBinary } from './scripts/electron-binary'

// The list reporter shows a skipped test without its reason; say it once (not in every worker).
const electron = findElectronBinary(process.cwd())
if (!electron.found && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`Electron e2e will be skipped: ${electron.reason}`)
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    trace: 'off',
    screenshot: 'only-on-failure',
  },
})
