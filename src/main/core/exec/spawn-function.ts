import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'

/** child_process.spawn's shape; a parameter so win32 spawn calls can be recorded on Linux. */
export type SpawnFunction = (file: string, args: readonly string[], options: SpawnOptions) => ChildProcess

export const nodeSpawn: SpawnFunction = (file, args, options) => spawn(file, args, options)
