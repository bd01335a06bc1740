import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBashBackground } from '../../../../../src/main/core/bash/tool/run-bash-background'
import { sanitizeEntryEnv } from '../../../../../src/main/core/env/sanitize-entry'
import { createExecutionPort } from '../../../../../src/main/core/exec'
import { createTaskRegistry } from '../../../../../src/main/core/tasks/task-registry'

describe('startBashBackground', () => {
  let root: string
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-bg-')))
    await mkdir(join(root, 'ws'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  const start = (command: string, registry = createTaskRegistry()) =>
    startBashBackground({
      command,
      cwd: join(root, 'ws'),
      dataDir: join(root, 'home'),
      runtimeEnv: sanitizeEntryEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root }, 'linux'),
      platform: 'linux',
      shell: { dialect: 'bash', path: '/bin/bash', source: 'system', reason: 'test', envOverlay: {} },
      snapshots: null,
      port: createExecutionPort({ platform: 'linux' }),
      registry,
      sessionId: 's1',
      description: 'count',
    })

  it('registers a running task at once; done settles with the exit and the file keeps the output', async () => {
    const registry = createTaskRegistry()
    const started = await start('echo one; sleep 0.3; echo two; exit 4', registry)
    if (started.kind !== 'backgrounded') throw new Error('expected a background task')
    expect(registry.get(started.taskId)).toMatchObject({
      status: 'running',
      sessionId: 's1',
      description: 'count',
    })
    const task = await started.done
    expect(task).toMatchObject({ taskId: started.taskId, status: 'failed', exitCode: 4 })
    expect(await readFile(started.outputPath, 'utf8')).toBe('one\ntwo\n')
    await registry.dispose()
  })

  it('a task that ends before anyone listens still settles done', async () => {
    const registry = createTaskRegistry()
    const started = await start('true', registry)
    if (started.kind !== 'backgrounded') throw new Error('expected a background task')
    await new Promise((resolve) => setTimeout(resolve, 300))
    await expect(started.done).resolves.toMatchObject({ status: 'completed', exitCode: 0 })
    await registry.dispose()
  })

  it('stopping the task ends done with the stop recorded', async () => {
    const registry = createTaskRegistry()
    const started = await start('sleep 30', registry)
    if (started.kind !== 'backgrounded') throw new Error('expected a background task')
    await registry.stop(started.taskId, 'user')
    await expect(started.done).resolves.toMatchObject({ status: 'stopped', stoppedBy: 'user' })
    await registry.dispose()
  })
})
