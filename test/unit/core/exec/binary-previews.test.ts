import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ExecutionRequest, OutputFileRef, ProgressSample } from '../../../../src/main/core/exec/types'
import { readOutputHead, readOutputTail } from '../../../../src/main/core/tasks/output-file-range'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const port = createExecutionPort()

/** Runs until the first progress sample (after 2 s), then cancels; returns that sample. */
async function firstProgress(request: Omit<ExecutionRequest, 'signal'>): Promise<ProgressSample> {
  const controller = new AbortController()
  let sample: ProgressSample | undefined
  await port.execute(
    { ...request, signal: controller.signal },
    {
      onProgress: (progress) => {
        sample ??= progress
        controller.abort()
      },
    },
  )
  if (!sample) throw new Error('no progress sample before the run ended')
  return sample
}

// Binary first, then text: the tail alone looks like text, and still must not be shown raw.
const BINARY_THEN_TEXT = "printf 'ELF\\001\\000\\002\\033[2J'; seq 1 50; sleep 30"

describe('binary output never reaches a preview raw (issue 15.8)', () => {
  it('pipe mode: the live previews show the placeholder, not control bytes', async () => {
    const sample = await firstProgress({
      command: { mode: 'shell', command: BINARY_THEN_TEXT, shellProfile: 'posix-bash' },
      cwd: tempDir(),
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(sample.preview5).toBe(`[binary output: ${sample.totalBytes} bytes]`)
    expect(sample.preview100).toBe(sample.preview5)
    expect(sample.totalBytes).toBeGreaterThan(100)
  })

  it('file mode: the same, from the output file', async () => {
    const dir = tempDir()
    const sample = await firstProgress({
      command: { mode: 'shell', command: BINARY_THEN_TEXT, shellProfile: 'posix-bash' },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(sample.preview100).toBe(`[binary output: ${sample.totalBytes} bytes]`)
  })

  it('binary that starts after the first 4 KiB still shows the placeholder: the tail is checked too', async () => {
    // seq 1 2000 prints about 8.9 KB of text, so the head looks like text and only the tail has the NUL.
    const sample = await firstProgress({
      command: {
        mode: 'shell',
        command: "seq 1 2000; printf '\\000\\033[2J'; sleep 30",
        shellProfile: 'posix-bash',
      },
      cwd: tempDir(),
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(sample.totalBytes).toBeGreaterThan(4096)
    expect(sample.preview5).toBe(`[binary output: ${sample.totalBytes} bytes]`)
    expect(sample.preview100).toBe(sample.preview5)
  })

  it('text output keeps its previews', async () => {
    const sample = await firstProgress({
      command: { mode: 'shell', command: 'seq 1 50; sleep 30', shellProfile: 'posix-bash' },
      cwd: tempDir(),
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(sample.preview5).toBe('46\n47\n48\n49\n50')
  })

  it("a task's output slices (live tail, model view) show the placeholder for binary files", async () => {
    const dir = tempDir()
    const binary = join(dir, 'binary.log')
    writeFileSync(
      binary,
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x00, 0x1b]), Buffer.from('text\n'.repeat(5_000))]),
    )
    const size = 4 + 5 * 5_000
    expect((await readOutputTail(fileRef(binary), 1024)).text).toBe(`[binary output: ${size} bytes]`)
    expect((await readOutputHead(fileRef(binary), 1024)).text).toBe(`[binary output: ${size} bytes]`)
    const text = join(dir, 'text.log')
    writeFileSync(text, 'plain\n')
    expect((await readOutputTail(fileRef(text), 1024)).text).toBe('plain\n')
  })
})

function fileRef(path: string): OutputFileRef {
  const { dev, ino } = statSync(path)
  return { path, identity: { dev, ino } }
}
