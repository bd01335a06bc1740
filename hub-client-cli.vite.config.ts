import { resolve } from 'node:path'
import { defineConfig } from 'vite'

/**
 * `shellgate hook`, `ticket` and `exec` (with a hub) as one CommonJS file
 * (out/main/hub-client-cli.cjs), built after `electron-vite build`. They run on every command an
 * agent makes (issue 20.6): one file loaded by Node's CommonJS loader is read and compiled once,
 * with none of the ES module loader's start-up and per-module resolve, read and link work that
 * the CLI's chunks cost. Only Node's own modules stay outside.
 */
export default defineConfig({
  build: {
    ssr: resolve('src/main/hub-client-cli.ts'),
    outDir: 'out/main',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: { format: 'cjs', entryFileNames: 'hub-client-cli.cjs', codeSplitting: false },
      // start-hub's import.meta.resolve('tsx') is for a run from source (a .ts entry) only; in
      // this bundle its entry is hub-client-cli.cjs, so that branch never runs.
      onwarn(warning, warn) {
        if (warning.code !== 'EMPTY_IMPORT_META') warn(warning)
      },
    },
  },
  ssr: { noExternal: true },
})
