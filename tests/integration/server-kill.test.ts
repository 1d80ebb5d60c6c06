/**
 * Two API instances (child processes) on one PostgreSQL server share the server-held jobs through the job
 * queue. The instance sending a job is killed with SIGKILL mid-send; the other finishes the job, and the
 * sandbox's log of received messages (the truth) shows every recipient exactly once. Needs a PostgreSQL
 * server (TEST_DATABASE_URL, which CI sets); skipped with the reason printed otherwise.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../src/core/constants/limits.ts'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import { sandboxPlugin } from '../../src/sandbox/app.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../src/server/testing/harness.ts'
import { freePort } from '../e2e/support/stack.ts'

const SEED = 20260427
const ids = demoPageIds(SEED)
const KEY = randomBytes(32).toString('base64')

if (!TEST_DATABASE_URL) console.log('server-kill: skipped: TEST_DATABASE_URL is not set (CI sets it)')

interface Instance {
  url: string
  child: ChildProcess
  output: () => string
}

async function startInstance(databaseUrl: string, graphBase: string): Promise<Instance> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      GRAPH_URL: `${graphBase}/sandbox/graph`,
      SANDBOX: 'true',
      PACING_SCALE: '0.1',
      // Short slices: a killed instance's slice is given to the other after 16 s rather than 40.
      JOB_SLICE_SECONDS: '3',
      TOKEN_ENCRYPTION_KEY: KEY,
      LOG_LEVEL: 'warn',
      STATIC_DIR: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the instance exited early:\n${output}`)
    try {
      if ((await fetch(`${url}/api/v2/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the instance did not start in time:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  return { url, child, output: () => output }
}

function kill9(instance: Instance) {
  if (instance.child.exitCode !== null || !instance.child.pid) return
  try {
    process.kill(-instance.child.pid, 'SIGKILL')
  } catch {
    // gone already
  }
}

describe.skipIf(!TEST_DATABASE_URL)(
  TEST_DATABASE_URL
    ? 'two instances on one PostgreSQL'
    : 'server kill -9: skipped (TEST_DATABASE_URL not set)',
  () => {
    let sandbox: FastifyInstance
    let sandboxBase: string
    let db: TestDatabase
    const instances: Instance[] = []

    beforeAll(async () => {
      db = await createTestDatabase(TEST_DATABASE_URL!)
      const port = await freePort()
      sandboxBase = `http://127.0.0.1:${port}`
      sandbox = Fastify()
      await sandbox.register(
        sandboxPlugin({
          policy: 'current',
          seed: SEED,
          appId: 'sandbox-app',
          appSecret: 'sandbox-secret',
          publicUrl: sandboxBase,
          liveMs: 0,
          paymentWebhookUrl: '/api/v2/payments/webhook',
          paymentWebhookSecret: 'whsec_sandbox',
        }),
        { prefix: '/sandbox' },
      )
      await sandbox.listen({ host: '127.0.0.1', port })
    }, 120_000)

    afterAll(async () => {
      for (const i of instances) kill9(i)
      await sandbox?.close()
      await db?.drop()
    })

    it('finishes the job of a killed instance on the other, nobody twice', async () => {
      const a = await startInstance(db.url, sandboxBase)
      instances.push(a)
      const call = async (base: string, method: string, path: string, body?: unknown, token?: string) => {
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
      const userToken = (
        await call(sandboxBase, 'POST', '/sandbox/token', { user: 'demo', scopes: [...REQUIRED_PERMISSIONS] })
      ).body.access_token as string
      const api = (
        (await call(a.url, 'POST', '/api/v2/login', { access_token: userToken })).body.data as {
          token: string
        }
      ).token
      const accounts = (
        await call(
          sandboxBase,
          'GET',
          `/sandbox/graph/v25.0/me/accounts?fields=id,access_token&access_token=${userToken}`,
        )
      ).body.data as { id: string; access_token: string }[]
      const pageToken = accounts.find((p) => p.id === ids.small)!.access_token
      expect(
        (
          await call(
            a.url,
            'POST',
            '/api/v2/page',
            { id: ids.small, name: 'Small', access_token: pageToken },
            api,
          )
        ).status,
      ).toBe(200)
      const list = (
        await call(
          sandboxBase,
          'GET',
          `/sandbox/graph/v25.0/${ids.small}/conversations?fields=id,participants,messages.limit(10){from,created_time}&limit=100&access_token=${pageToken}`,
        )
      ).body.data as { id: string; participants: { data: { id: string; name: string }[] } }[]
      const now = Date.now()
      const recipients = list
        .filter((c) => isInsideWindow(conversationCustomerMessageAt(ids.small, c as never), now))
        .slice(0, 30)
        .map((c) => {
          const who = c.participants.data.find((p) => p.id !== ids.small)!
          return { recipient_id: who.id, name: who.name, conversation_id: c.id }
        })
      expect(recipients.length).toBeGreaterThanOrEqual(20)
      const text = `Killed mid-send ${Date.now()}`
      const created = await call(
        a.url,
        'POST',
        '/api/v2/messages',
        {
          page_id: ids.small,
          message_type_id: 1,
          message: text,
          label: '[]',
          total_messages: recipients.length,
          branded_messages_amount: 0,
        },
        api,
      )
      const id = created.body.id as string
      await call(a.url, 'PUT', `/api/v2/messages/${id}/recipients`, { recipients }, api)
      const sent = async () =>
        (
          (await call(sandboxBase, 'GET', '/sandbox/sent')).body.data as {
            recipient_id: string
            text: string
          }[]
        ).filter((s) => s.text === text)
      // The second instance is up before the job starts, so either may take it: the one sending is killed.
      const b = await startInstance(db.url, sandboxBase)
      instances.push(b)
      expect(
        (
          await call(
            a.url,
            'POST',
            `/api/v2/messages/${id}/handover`,
            { lease: 0, page_token: pageToken, cursor: 0 },
            api,
          )
        ).status,
      ).toBe(200)
      await expect
        .poll(async () => (await sent()).length, { timeout: 30_000, interval: 100 })
        .toBeGreaterThanOrEqual(3)
      // Whichever instance sends is the one killed: kill A; if the sends go on at once, B was sending, so B
      // is killed too and a fresh instance must take the job over.
      const before = (await sent()).length
      kill9(a)
      await new Promise((r) => setTimeout(r, 1_500))
      let survivor = b
      const moved = (await sent()).length !== before
      console.log(
        `server-kill: the ${moved ? 'second' : 'first'} instance was sending; it is killed mid-send`,
      )
      if (moved) {
        kill9(b)
        survivor = await startInstance(db.url, sandboxBase)
        instances.push(survivor)
      }
      await expect
        .poll(
          async () =>
            (
              (await call(survivor.url, 'GET', '/api/v2/messages', undefined, api)).body.data as {
                id: string
                state: string
              }[]
            ).find((m) => m.id === id)?.state,
          { timeout: 150_000, interval: 1_000 },
        )
        .toBe('finished')
      const log = await sent()
      const counts = new Map<string, number>()
      for (const s of log) counts.set(s.recipient_id, (counts.get(s.recipient_id) ?? 0) + 1)
      expect([...counts.keys()].sort()).toEqual(recipients.map((r) => r.recipient_id).sort())
      expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([])
    }, 300_000)
  },
)
