import { z } from 'zod'

export const TransportKindSchema = z.enum(['electron-ipc', 'websocket', 'loopback'])

export const AboutSchema = z.object({
  appVersion: z.string(),
  platform: z.string(),
  arch: z.string(),
  nodeVersion: z.string(),
  /** null in browser mode and headless: no Electron runtime is involved. */
  electronVersion: z.string().nullable(),
  runtime: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  /** The person's workspace; null until they choose one (started without --workspace). */
  workspace: z.string().nullable(),
  transport: TransportKindSchema,
})
export type About = z.infer<typeof AboutSchema>

export const NoticeSchema = z.object({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
})
