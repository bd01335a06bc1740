import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig, type Plugin } from 'vite'

/**
 * `shellgate hook`, `ticket` and `exec` (with a hub) as CommonJS (out/main/hub-client-cli.cjs and
 * the chunks it loads when a command needs them), built after `electron-vite build`. They run on
 * every command an agent makes (issue 20.6): files loaded by Node's CommonJS loader are read and
 * compiled once, with none of the ES module loader's start-up and per-module resolve, read and
 * link work that the CLI's chunks cost. The hook's whole path is the entry file; `ticket`, `exec`
 * and starting a hub are chunks of their own. Only Node's own modules stay outside.
 */
export default defineConfig({
  plugins: [lazyBuiltins()],
  build: {
    ssr: resolve('src/main/hub-client-cli.ts'),
    outDir: 'out/main',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        format: 'cjs',
        entryFileNames: 'hub-client-cli.cjs',
        chunkFileNames: 'hub-client-[name].cjs',
      },
      // start-hub's import.meta.resolve('tsx') is for a run from source (a .ts entry) only; in
      // this bundle its entry is hub-client-cli.cjs, so that branch never runs.
      onwarn(warning, warn) {
        if (warning.code !== 'EMPTY_IMPORT_META') warn(warning)
      },
    },
  },
  ssr: { noExternal: true },
})

/**
 * Node's modules that the hook's path imports but never calls (starting a hub, Windows, the
 * other commands): a bundle requires every import at its top, and these cost the hook 5-10 ms of
 * start-up together (node:crypto alone about 5). Each becomes a module of functions that requires
 * the real one at the first call. A name used as a value rather than called fails this build.
 */
const LAZY_BUILTINS = new Set([
  'node:child_process',
  'node:crypto',
  'node:fs/promises',
  'node:os',
  'node:string_decoder',
  'node:url',
  'node:util',
])
const LAZY_PREFIX = '\0lazy-builtin:'

function lazyBuiltins(): Plugin {
  const requireBuiltin = createRequire(import.meta.url)
  return {
    name: 'shellgate-lazy-builtins',
    enforce: 'pre',
    resolveId(id, importer) {
      if (!LAZY_BUILTINS.has(id)) return null
      // The stand-in's own require is of the real module.
      if (importer?.startsWith(LAZY_PREFIX)) return { id, external: true }
      return `${LAZY_PREFIX}${id}`
    },
    load(id) {
      if (!id.startsWith(LAZY_PREFIX)) return null
      const name = id.slice(LAZY_PREFIX.length)
      const real = requireBuiltin(name) as Record<string, unknown>
      const lines = [`let loaded\nconst load = () => (loaded ??= require(${JSON.stringify(name)}))`]
      for (const key of Object.keys(real)) {
        if (typeof real[key] !== 'function' || !/^[A-Za-z_$][\w$]*$/.test(key)) continue
        // A class (StringDecoder) is constructed, a function called, both on the real module.
        lines.push(
          `export function ${key}(...args) { return new.target ? new (load().${key})(...args) : load().${key}(...args) }`,
        )
      }
      return lines.join('\n')
    },
  }
}
