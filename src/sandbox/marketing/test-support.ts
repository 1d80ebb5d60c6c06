/** Helpers of the marketing sandbox tests: raw Graph calls, tokens with the marketing scopes, a webhook receiver. */
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { startSandbox, VERSION, type TestSandbox } from '../test-support.ts'
import type { SandboxOptions } from '../context.ts'

export const MARKETING_SCOPES = ['ads_management', 'paid_marketing_messages']
export const HOUR = 3_600_000
export const DAY = 24 * HOUR

export interface GraphAnswer {
  status: number
  body: Record<string, unknown> & {
    error?: { code: number; error_subcode?: number; message: string; type: string; fbtrace_id: string }
  }
}

/** The control endpoints' answers, loosely: a `data` list of records, or fields. */
export interface ControlAnswer {
  data: Record<string, string | number>[]
  campaigns: Record<string, string | number>[]
  [key: string]: unknown
}

/** A webhook event as the tests read it: `messaging` items, or `changes` of a page field. */
export interface WebhookEvent {
  sender?: { id: string }
  recipient?: { id: string }
  timestamp?: number
  message?: { mid: string; is_echo?: boolean; text?: string }
  optin?: Record<string, unknown> & {
    notification_messages_token?: string
    notification_messages_status?: string
  }
  field?: string
  value?: Record<string, unknown>
}

export interface MarketingSandbox extends TestSandbox {
  graph(method: 'GET' | 'POST' | 'DELETE', path: string, token?: string, body?: unknown): Promise<GraphAnswer>
  control(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: ControlAnswer }>
  /** A user token with the login's permissions and the marketing ones. */
  marketingUserToken(user?: 'demo' | 'second'): Promise<string>
  marketingPageToken(pageId: string): Promise<string>
}

export async function startMarketingSandbox(
  overrides: Partial<SandboxOptions> = {},
): Promise<MarketingSandbox> {
  const sb = await startSandbox(overrides)
  const graph = async (method: 'GET' | 'POST' | 'DELETE', path: string, token?: string, body?: unknown) => {
    const url = new URL(`${sb.url}/graph/${VERSION}${path}`)
    if (token) url.searchParams.set('access_token', token)
    const res = await fetch(url, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    })
    return { status: res.status, body: (await res.json()) as GraphAnswer['body'] }
  }
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${sb.url}${path}`, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }
        : {}),
    })
    return { status: res.status, body: (await res.json()) as ControlAnswer }
  }
  const marketingUserToken = (user: 'demo' | 'second' = 'demo') =>
    sb.userToken(user, [...REQUIRED_PERMISSIONS, ...MARKETING_SCOPES])
  return {
    ...sb,
    graph,
    control,
    marketingUserToken,
    marketingPageToken: async (pageId) => sb.pageToken(pageId, await marketingUserToken()),
  }
}

export interface WebhookReceiver {
  url: string
  bodies: { object: string; entry: { id: string; messaging?: WebhookEvent[]; changes?: WebhookEvent[] }[] }[]
  /** Every event of every body, in arrival order. */
  events(): WebhookEvent[]
  /** Whether every body came with a valid X-Hub-Signature-256 for `secret`. */
  signedWith(secret: string): boolean
  waitFor(n: number, ms?: number): Promise<void>
  close(): Promise<void>
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const raw: { body: string; signature: string }[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      raw.push({ body, signature: String(req.headers['x-hub-signature-256'] ?? '') })
      res.writeHead(200).end('EVENT_RECEIVED')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  const bodies = () => raw.map((r) => JSON.parse(r.body) as WebhookReceiver['bodies'][number])
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get bodies() {
      return bodies()
    },
    events() {
      return bodies().flatMap((b) => b.entry.flatMap((e) => [...(e.messaging ?? []), ...(e.changes ?? [])]))
    },
    signedWith: (secret) =>
      raw.every((r) => r.signature === `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`),
    async waitFor(n, ms = 3_000) {
      const until = Date.now() + ms
      while (raw.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
