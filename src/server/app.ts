/**
 * Builds the product API (and the static app) as a Fastify instance without listening, so tests call
 * `app.inject()` and `main.ts` / `src/stack.ts` decide how it runs. Extra plugins (the sandbox) are passed in
 * by the composing entry: this module never imports the sandbox.
 */
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { ServerConfig } from './config.ts'

export interface BuildOptions {
  config: ServerConfig
  /** Plugins registered before the API, each with its own prefix (the sandbox uses `/sandbox`). */
  mounts?: { plugin: FastifyPluginAsync; prefix: string }[]
}

export async function buildApp({ config, mounts = [] }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    trustProxy: true,
  })
  for (const m of mounts) await app.register(m.plugin, { prefix: m.prefix })
  app.get('/api/v2/health', async () => ({ ok: true }))
  return app
}
