/**
 * The server carries a bulk job on: the API with the sandbox on one loopback port, a job started "on the
 * device" (this test plays the browser's sender: some recipients sent and touched, one result not yet
 * delivered, one send uncertain that arrived, one uncertain that did not), handed over to the server, finished
 * there. The sandbox's log of received messages is the truth: every recipient exactly once, the pacing held
 * across the hand-over, the allowance spent once per delivery. Also: a take-back mid-send, a stale hand-over
 * refused, and the page token absent from the database files and the logs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS, SEND_DELAY_MIN_MS } from '../../src/core/constants/limits.ts'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import { sandboxPlugin } from '../../src/sandbox/app.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { freePort } from '../e2e/support/stack.ts'

const SEED = 20260427
const SCALE = 0.05
const ids = demoPageIds(SEED)

interface Sent {
  recipient_id: string
  text: string | null
  at: string
}

describe('the server carries a handed-over job on', () => {
  let app: FastifyInstance
  let base: string
  let dir: string
  const logs: string[] = []
  let api: string
  let userToken: string
  let pageToken: string
  let audience: { recipient_id: string; name: string; conversation_id: string }[] = []
  let conversations: {
    id: string
    participants: { data: { id: string; name: string }[] }
    messages?: { data: { from?: { id: string }; created_time: string }[] }
  }[] = []
  /** The test clock a scheduled send's audience is computed with (ahead of the real one by this much). */
  let audienceAhead = 0

  const json = async (method: string, path: string, body?: unknown, token = api) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> }
  }
  const graph = async (path: string, init?: RequestInit) =>
    (await (await fetch(`${base}/sandbox/graph/v25.0/${path}`, init)).json()) as Record<string, unknown>
  const sentLog = async () => ((await (await fetch(`${base}/sandbox/sent`)).json()) as { data: Sent[] }).data

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-continuation-'))
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      LOG_LEVEL: 'debug',
      STATIC_DIR: '/nonexistent',
      PUBLIC_URL: base,
      PORT: String(port),
      PACING_SCALE: String(SCALE),
    })
    const sandbox = sandboxPlugin({
      policy: 'current',
      seed: SEED,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      publicUrl: base,
      liveMs: 0,
      paymentWebhookUrl: '/api/v2/payments/webhook',
      paymentWebhookSecret: 'whsec_integration',
    })
    app = await buildApp({
      config,
      mounts: [{ prefix: '/sandbox', plugin: sandbox }],
      sandboxWebhookSecret: 'whsec_integration',
      serverSender: { settleMs: 300, pollingSeconds: 0.5, audienceNow: () => Date.now() + audienceAhead },
      logStream: { write: (line) => void logs.push(line) },
    })
    await app.listen({ host: '127.0.0.1', port })
    userToken = (
      await json('POST', '/sandbox/token', { user: 'demo', scopes: [...REQUIRED_PERMISSIONS] }, '')
    ).body.access_token as string
    api = (
      (await json('POST', '/api/v2/login', { access_token: userToken }, '')).body.data as { token: string }
    ).token
    const accounts = await graph(`me/accounts?fields=id,access_token&access_token=${userToken}`)
    pageToken = (accounts.data as { id: string; access_token: string }[]).find(
      (p) => p.id === ids.small,
    )!.access_token
    expect(
      (await json('POST', '/api/v2/page', { id: ids.small, name: 'Small', access_token: pageToken })).status,
    ).toBe(200)
    const fields = 'id,participants,messages.limit(10){from,created_time}'
    const list = await graph(
      `${ids.small}/conversations?fields=${fields}&limit=100&access_token=${pageToken}`,
    )
    const now = Date.now()
    conversations = list.data as typeof conversations
    audience = conversations
      .filter((c) => isInsideWindow(conversationCustomerMessageAt(ids.small, c as never), now))
      .map((c) => {
        const who = c.participants.data.find((p) => p.id !== ids.small)!
        return { recipient_id: who.id, name: who.name, conversation_id: c.id }
      })
  })
  afterAll(async () => {
    await app?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function createJob(text: string, count: number) {
    const recipients = audience.slice(0, count)
    const created = await json('POST', '/api/v2/messages', {
      page_id: ids.small,
      message_type_id: 1,
      message: text,
      label: '[]',
      total_messages: recipients.length,
      branded_messages_amount: 0,
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect((await json('PUT', `/api/v2/messages/${id}/recipients`, { recipients })).status).toBeLessThan(300)
    return { id, recipients }
  }

  /** What the device's worker does for one recipient: the Graph send. */
  const deviceSend = (recipientId: string, text: string) =>
    graph(`me/messages?access_token=${pageToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recipient: { id: recipientId }, messaging_type: 'RESPONSE', message: { text } }),
    })
  const touchBody = (recipientId: string) => ({
    _method: 'PUT',
    status: 'OK',
    recipient_id: recipientId,
    sent_as_branded: false,
  })
  const available = async () =>
    ((await json('GET', '/api/v2/user')).body.data as { subscription: { available_messages: number } })
      .subscription.available_messages
  const jobOf = async (id: string) =>
    (
      (await json('GET', '/api/v2/messages')).body.data as {
        id: string
        state: string
        sender: string
        ok_count: number
      }[]
    ).find((m) => m.id === id)!

  it('finishes a job the device handed over: everyone once, the pacing held, the allowance spent once each', async () => {
    expect(audience.length).toBeGreaterThanOrEqual(8)
    const text = `Server continuation ${Date.now()}`
    const { id, recipients } = await createJob(text, 8)
    const before = await available()
    // The device sent the first four: two touched, one whose touch is still queued, one sent but uncertain;
    // the fifth was attempted (uncertain) but never went out.
    for (const r of recipients.slice(0, 4)) await deviceSend(r.recipient_id, text)
    for (const r of recipients.slice(0, 2))
      expect((await json('POST', `/api/v2/messages/${id}/touch`, touchBody(r.recipient_id))).status).toBe(200)
    const attemptAt = Date.now() - 1_000
    const handover = await json('POST', `/api/v2/messages/${id}/handover`, {
      lease: 0,
      page_token: pageToken,
      next_send_at: Date.now() + 200,
      cursor: 5,
      results: [touchBody(recipients[2]!.recipient_id)],
      uncertain: [
        { recipient_id: recipients[3]!.recipient_id, attempt_at: attemptAt },
        { recipient_id: recipients[4]!.recipient_id, attempt_at: attemptAt },
      ],
    })
    expect(handover.status).toBe(200)
    expect(handover.body).toMatchObject({ lease: 1, sender: 'server' })
    expect(JSON.stringify(handover.body)).not.toContain(pageToken)
    // A second hand-over with the old lease is refused: one sender per job.
    const again = await json('POST', `/api/v2/messages/${id}/handover`, {
      lease: 0,
      page_token: pageToken,
      cursor: 5,
    })
    expect(again.status).toBe(409)

    await expect
      .poll(async () => (await jobOf(id)).state, { timeout: 30_000, interval: 250 })
      .toBe('finished')
    const log = (await sentLog()).filter((s) => s.text === text)
    const counts = new Map<string, number>()
    for (const s of log) counts.set(s.recipient_id, (counts.get(s.recipient_id) ?? 0) + 1)
    expect([...counts.keys()].sort()).toEqual(recipients.map((r) => r.recipient_id).sort())
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    // The server's sends keep the pacing's lower bound between them (judged only as a lower bound).
    const server = log.slice(4).map((s) => Date.parse(s.at))
    for (let i = 1; i < server.length; i++)
      expect(server[i]! - server[i - 1]!).toBeGreaterThanOrEqual(Math.floor(SEND_DELAY_MIN_MS * SCALE))
    expect(await available()).toBe(before - recipients.length)
    expect((await jobOf(id)).ok_count).toBe(recipients.length)
    // The token is gone with the job.
    expect(await app.store.query('SELECT 1 FROM message_page_tokens WHERE message_id = $1', [id])).toEqual([])
  })

  it('gives the job back to the device mid-send: nobody twice, nobody skipped', async () => {
    const text = `Take back ${Date.now()}`
    const { id, recipients } = await createJob(text, 8)
    const handover = await json('POST', `/api/v2/messages/${id}/handover`, {
      lease: 0,
      page_token: pageToken,
      cursor: 0,
    })
    expect(handover.status).toBe(200)
    await expect
      .poll(async () => (await sentLog()).filter((s) => s.text === text).length, {
        timeout: 20_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(2)
    const back = await json('POST', `/api/v2/messages/${id}/take-back`, {})
    expect(back.status).toBe(200)
    expect(back.body.sender).toBe('device')
    expect(back.body.lease as number).toBeGreaterThan(1)
    const atTakeBack = (await sentLog()).filter((s) => s.text === text).length
    // The server sends nothing more once the device holds the job.
    await new Promise((r) => setTimeout(r, 600))
    expect((await sentLog()).filter((s) => s.text === text).length).toBe(atTakeBack)
    // The device goes on from the server's record: touched recipients are done, uncertain ones are
    // reconciled against the conversation (here: the sandbox's log stands for that read), the rest are sent.
    const page = (await json('GET', `/api/v2/messages/${id}/recipients?limit=1000`)).body.data as {
      recipient_id: string
      status: string | null
    }[]
    const uncertain = new Set((back.body.uncertain as { recipient_id: string }[]).map((u) => u.recipient_id))
    const arrived = new Set((await sentLog()).filter((s) => s.text === text).map((s) => s.recipient_id))
    for (const r of page) {
      if (r.status) continue
      if (uncertain.has(r.recipient_id) && arrived.has(r.recipient_id)) continue
      await deviceSend(r.recipient_id, text)
    }
    const log = (await sentLog()).filter((s) => s.text === text)
    expect(log.map((s) => s.recipient_id).sort()).toEqual(recipients.map((r) => r.recipient_id).sort())
  })

  it('starts a scheduled send at its time, with the audience computed then; an edited one moves, a cancelled one never goes', async () => {
    const text = `Scheduled ${Date.now()}`
    const at = Date.now() + 2_500
    const created = await json('POST', '/api/v2/messages/scheduled', {
      page_id: ids.small,
      message: text,
      label: '[]',
      scheduled_at: at,
      time_zone: 'Asia/Phnom_Penh',
      page_token: pageToken,
      // Everyone inside the window, those waiting for an answer too.
      include_waiting: true,
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    const listed = () =>
      json('GET', '/api/v2/messages').then((r) =>
        (
          r.body.data as {
            id: string
            state: string
            scheduled_at: string | null
            time_zone: string | null
          }[]
        ).find((m) => m.id === id)!,
      )
    expect(await listed()).toMatchObject({
      state: 'scheduled',
      scheduled_at: new Date(at).toISOString(),
      time_zone: 'Asia/Phnom_Penh',
    })
    // The clock moves 20 hours on before it starts: the window is evaluated then, not when it was scheduled.
    audienceAhead = 20 * 3_600_000
    const later = Date.now() + audienceAhead
    const expected = conversations
      .filter((c) => isInsideWindow(conversationCustomerMessageAt(ids.small, c as never), later))
      .map((c) => c.participants.data.find((p) => p.id !== ids.small)!.id)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(audience.length)
    expect((await sentLog()).filter((s) => s.text === text)).toEqual([])
    await expect.poll(async () => (await listed()).state, { timeout: 30_000, interval: 250 }).toBe('finished')
    const firstAt = Math.min(...(await sentLog()).filter((s) => s.text === text).map((s) => Date.parse(s.at)))
    expect(firstAt).toBeGreaterThanOrEqual(at)
    expect(
      (await sentLog())
        .filter((s) => s.text === text)
        .map((s) => s.recipient_id)
        .sort(),
    ).toEqual([...expected].sort())
    audienceAhead = 0

    // Edited, then cancelled before its time: nothing goes.
    const other = `Cancelled ${Date.now()}`
    const second = await json('POST', '/api/v2/messages/scheduled', {
      page_id: ids.small,
      message: other,
      label: '[]',
      scheduled_at: Date.now() + 60_000,
      time_zone: 'Asia/Phnom_Penh',
      page_token: pageToken,
    })
    const secondId = second.body.id as string
    // A time already past is refused with the errors map, beside its field.
    const past = await json('PATCH', `/api/v2/messages/${secondId}/scheduled`, {
      scheduled_at: Date.now() - 3_600_000,
    })
    expect(past.status).toBe(422)
    expect(past.body).toMatchObject({ errors: { scheduled_at: [expect.any(String)] } })
    expect(
      (
        await json('PATCH', `/api/v2/messages/${secondId}/scheduled`, {
          message: `${other}!`,
          scheduled_at: Date.now() + 1_500,
        })
      ).status,
    ).toBe(200)
    expect((await json('DELETE', `/api/v2/messages/${secondId}/scheduled`)).status).toBe(200)
    expect((await json('PATCH', `/api/v2/messages/${secondId}/scheduled`, { message: 'late' })).status).toBe(
      409,
    )
    await new Promise((r) => setTimeout(r, 2_500))
    expect((await sentLog()).filter((s) => s.text?.startsWith(other))).toEqual([])
    expect(
      await app.store.query('SELECT 1 FROM message_page_tokens WHERE message_id = $1', [secondId]),
    ).toEqual([])
    expect((await json('POST', '/api/v2/messages/scheduled', { page_id: ids.small })).status).toBe(422)
  })

  it('keeps the page token out of the database files and the logs', async () => {
    await app.store.query('CHECKPOINT')
    const files: string[] = []
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f)
        if (statSync(p).isDirectory()) walk(p)
        else files.push(p)
      }
    }
    walk(dir)
    expect(files.length).toBeGreaterThan(0)
    const needle = Buffer.from(pageToken)
    const holding = files.filter((f) => readFileSync(f).includes(needle))
    expect(holding).toEqual([])
    expect(logs.length).toBeGreaterThan(0)
    expect(logs.filter((l) => l.includes(pageToken))).toEqual([])
  })
})
