import { resolve } from 'node:path'
import { defineConfig } from 'vite'

/**
 * `shellgate hook` as one CommonJS file (out/main/hook.cjs), built after `electron-vite build`.
 * A hook runs before every command an agent makes (issue 20.6): as one file loaded by Node's
 * CommonJS loader it is read and compiled once, with none of the ES module loader's per-module
 * resolve, read and link work that the CLI's chunks cost. Only Node's own modules stay outside.
 */
export default defineConfig({
  build: {
    ssr: resolve('src/main/hook-cli.ts'),
    outDir: 'out/main',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: { format: 'cjs', entryFileNames: 'hook.cjs', codeSplitting: false },
      // start-hub's import.meta.resolve('tsx') is for a run from source (a .ts entry) only; in
      // this bundle its entry is hook.cjs, so that branch never runs.
      onwarn(warning, warn) {
        if (warning.code !== 'EMPTY_IMPORT_META') warn(warning)
      },
    },
  },
  ssr: { noExternal: true },
})
