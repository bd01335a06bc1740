#!/usr/bin/env node
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(cli)) {
  process.stderr.write('shellgate: the build is missing (out/main/cli.js); run `npm run build` first\n')
  process.exit(2)
}
await import(cli)
