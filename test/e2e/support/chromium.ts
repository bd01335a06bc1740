import { existsSync } from 'node:fs'

/** Debian's Chromium, or $CHROME_PATH; Playwright's own browser download does not work here. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (path): path is string => Boolean(path),
  )
  const found = candidates.find((path) => existsSync(path))
  if (!found)
    throw new Error(`no Chromium found (tried ${candidates.join(', ')}); install it or set CHROME_PATH`)
  return found
}

/**
 * --no-sandbox only for the test browser and only as root, where Chromium refuses to start
 * otherwise; the product never passes it. The network flags keep Chromium from dialling out.
 */
export function chromiumArgs(): string[] {
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ]
  if (process.getuid?.() === 0) args.push('--no-sandbox')
  return args
}
