import type { CliIo } from '../command'

/**
 * In a terminal, `u` prints a fresh UI address for another browser. Raw mode swallows Ctrl+C's
 * signal, so Ctrl+C is turned back into SIGINT for the CLI's own handler.
 */
export function watchAddressKey(io: CliIo, printAddress: () => void): () => void {
  const terminal = io.terminal
  if (!terminal?.isTTY) return () => undefined
  terminal.setRawMode(true)
  terminal.resume()
  const onData = (data: Buffer) => {
    for (const byte of data) {
      if (byte === 0x75 || byte === 0x55) printAddress()
      else if (byte === 0x03) process.kill(process.pid, 'SIGINT')
    }
  }
  terminal.on('data', onData)
  io.stderr('Press u for a fresh UI address, Ctrl+C to stop.\n')
  return () => {
    terminal.off('data', onData)
    terminal.setRawMode(false)
    terminal.pause()
  }
}
