/** The sandbox: a local stand-in for the social network, mounted by src/stack.ts under /sandbox. */
import type { FastifyPluginAsync } from 'fastify'

export interface SandboxOptions {
  policy: 'current' | 'legacy'
  seed: number
  appId: string
  appSecret: string
  publicUrl: string
  liveMs: number
}

export function sandboxPlugin(_options: SandboxOptions): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', async () => ({ ok: true }))
  }
}
