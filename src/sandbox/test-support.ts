/** Starts a sandbox on a free port for contract tests and gives a Graph client pointed at it. */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createGraphClient } from '../core/graph/client.ts'
import type { GraphClient } from '../core/graph/types.ts'
import { REQUIRED_PERMISSIONS } from '../core/constants/limits.ts'
import { sandboxPlugin, type SandboxOptions } from './app.ts'
import {
  demoConversations,
  demoPageIds,
  demoPages,
  type DemoConversation,
  type UserKey,
} from './state/demo.ts'

export const VERSION = 'v25.0'

export interface TestSandbox {
  app: FastifyInstance
  /** e.g. http://127.0.0.1:1234/sandbox */
  url: string
  client: GraphClient
  ids: ReturnType<typeof demoPageIds>
  options: SandboxOptions
  post(path: string, body?: unknown): Promise<unknown>
  userToken(user?: UserKey, scopes?: string[], declined?: string[]): Promise<string>
  pageToken(pageId: string, userToken?: string): Promise<string>
  /** The seeded conversations of a page (same seed and start time as the server). */
  seeded(pageId: string): DemoConversation[]
}

export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const options: SandboxOptions = {
    policy: 'current',
    seed: 7,
    appId: 'test-app',
    appSecret: 'test-secret',
    publicUrl: 'http://localhost',
    liveMs: 0,
    startMs: Date.now(),
    ...overrides,
  }
  const app = Fastify({ logger: false })
  await app.register(sandboxPlugin(options), { prefix: '/sandbox' })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `${address}/sandbox`
  const client = createGraphClient({ baseUrl: `${url}/graph`, version: VERSION })
  const post = async (path: string, body: unknown = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return res.json() as Promise<unknown>
  }
  const userToken = async (
    user: UserKey = 'demo',
    scopes: string[] = [...REQUIRED_PERMISSIONS],
    declined: string[] = [],
  ) => ((await post('/token', { user, scopes, declined })) as { access_token: string }).access_token
  return {
    app,
    url,
    client,
    ids: demoPageIds(options.seed),
    options,
    post,
    userToken,
    async pageToken(pageId, token) {
      const accounts = await client.accounts(token ?? (await userToken()))
      const account = accounts.data.find((a) => a.id === pageId)
      if (!account?.access_token) throw new Error(`no page token for ${pageId}`)
      return account.access_token
    },
    seeded(pageId) {
      const page = demoPages(options.seed).find((p) => p.id === pageId)!
      return demoConversations(options.seed, page, options.startMs!)
    },
  }
}

/**
 * One sandbox for a test file's tests: started before them (handed to `started`), reset before each, closed
 * after them all.
 */
export function sandboxForFile(
  started: (sb: TestSandbox) => void,
  overrides: Partial<SandboxOptions> = {},
): void {
  let sb: TestSandbox | undefined
  beforeAll(async () => {
    sb = await startSandbox(overrides)
    started(sb)
  })
  afterAll(async () => {
    await sb?.app.close()
  })
  beforeEach(async () => {
    await sb?.post('/reset')
  })
}
