/**
 * Test support for the API: an app on an in-memory PGlite (or a throwaway PostgreSQL database when
 * TEST_DATABASE_URL is set and asked for), a fake Graph, and helpers to log users in.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { describe } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import type { ApiUser } from '../../core/contracts/api.ts'
import { type BuildOptions, buildApp } from '../app.ts'
import { type ServerConfig, loadConfig } from '../config.ts'
import { migrate } from '../db/migrate.ts'
import { type Queryable, type Store, openStore } from '../db/store.ts'
import { GraphCallError, type GraphApi } from '../graph/graph-api.ts'
import { handOver } from '../bulk/jobs.ts'
import type { TokenBox } from '../bulk/token-box.ts'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

export function testConfig(env: Record<string, string> = {}): ServerConfig {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent/pagecast-static',
    PUBLIC_URL: 'http://pagecast.test',
    SERVER_SENDER: 'false',
    ...env,
  })
}

/**
 * Tokens look like `fb:<user id>`, `fb:<user id>:decline=<perm>,<perm>`, or `fb:<user id>:both=<perm>` (a
 * network answer that lists the permission as granted and as declined); page tokens `page:<page id>`, or
 * `page:<page id>@<user id>` for a page token issued to that user (see `pageToken`); anything else is refused.
 */
export const fakeGraph: GraphApi = {
  async me(token) {
    const m = /^fb:(\d+)/.exec(token)
    if (!m) throw new GraphCallError(400, 'Invalid OAuth access token.')
    return { id: m[1]!, name: `User ${m[1]}`, email: `user${m[1]}@example.com` }
  },
  async permissions(token) {
    const declined = /decline=([a-z_,]+)/.exec(token)?.[1]?.split(',') ?? []
    const both = /both=([a-z_,]+)/.exec(token)?.[1]?.split(',') ?? []
    return [
      ...REQUIRED_PERMISSIONS.map((permission) => ({
        permission,
        status: declined.includes(permission) ? ('declined' as const) : ('granted' as const),
      })),
      ...both.map((permission) => ({ permission, status: 'declined' as const })),
    ]
  },
  async tokenOwner(token) {
    const m = /^page:(\d+)$/.exec(token)
    if (!m) throw new GraphCallError(400, 'Invalid OAuth access token.')
    return m[1]!
  },
  async debugToken(token) {
    if (token === 'unreachable') throw new GraphCallError(0, 'The social network could not be reached.')
    const app_id = testConfig().FB_APP_ID
    const page = /^page:(\d+)@(\d+)$/.exec(token)
    if (page) return { app_id, type: 'PAGE', is_valid: true, profile_id: page[1]!, user_id: page[2]! }
    const user = /^fb:(\d+)/.exec(token)
    if (user) return { app_id, type: 'USER', is_valid: true, user_id: user[1]! }
    return { is_valid: false, error: { code: 190, message: 'Invalid OAuth access token.' } }
  },
  async subscribePage(pageId, token) {
    const page = /^page:(\d+)(@\d+)?$/.exec(token)
    if (!page || page[1] !== pageId) throw new GraphCallError(400, 'Invalid OAuth access token.')
  },
  async exchangeToken(token) {
    if (/^page:\d+$/.test(token)) throw new GraphCallError(400, 'Only user tokens can be exchanged.')
    if (token === 'unreachable') throw new GraphCallError(0, 'The social network could not be reached.')
    if (!token.startsWith('page:')) throw new GraphCallError(400, 'Invalid OAuth access token.')
    return `long:${token}`
  },
}

export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

/** A fresh database on the PostgreSQL server for one test file, dropped afterwards. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `pagecast_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

export type StoreKind = 'pglite' | 'postgres'

/** The same store, with the text of every statement sent through it (its transactions' too) in `statements`. */
export function countingStore(store: Store): { store: Store; statements: string[] } {
  const statements: string[] = []
  const counted = (db: Queryable): Queryable => ({
    query: (sql, params) => (statements.push(sql), db.query(sql, params)),
    exec: (sql) => (statements.push(sql), db.exec(sql)),
  })
  return {
    statements,
    store: {
      ...store,
      ...counted(store),
      transaction: (fn) => store.transaction((tx) => fn(counted(tx))),
    },
  }
}

/** A migrated store of its own (in-memory PGlite, or a throwaway PostgreSQL database), for repo tests. */
export async function openTestStore(kind: StoreKind): Promise<{ store: Store; close(): Promise<void> }> {
  const db = kind === 'postgres' ? await createTestDatabase(TEST_DATABASE_URL!) : undefined
  const store = await openStore({ dataDir: 'memory://', databaseUrl: db?.url })
  await migrate(store)
  return {
    store,
    async close() {
      await store.close()
      await db?.drop()
    },
  }
}

export interface TestApp {
  app: FastifyInstance
  close(): Promise<void>
}

export async function startTestApp(
  kind: StoreKind = 'pglite',
  options: Partial<BuildOptions> = {},
  env: Record<string, string> = {},
): Promise<TestApp> {
  let db: TestDatabase | undefined
  if (kind === 'postgres') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set')
    db = await createTestDatabase(TEST_DATABASE_URL)
  }
  const config = testConfig({ ...(db ? { DATABASE_URL: db.url } : {}), ...env })
  const app = await buildApp({ config, graph: fakeGraph, ...options })
  return {
    app,
    async close() {
      await app.close()
      await db?.drop()
    },
  }
}

export interface LoggedIn {
  token: string
  user: ApiUser
  auth: { authorization: string }
}

export async function login(
  app: FastifyInstance,
  facebookId: string,
  extra: Record<string, string> = {},
): Promise<LoggedIn> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/login',
    payload: { access_token: `fb:${facebookId}`, ...extra },
  })
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`)
  const body = res.json() as { data: { token: string; user: ApiUser } }
  return {
    token: body.data.token,
    user: body.data.user,
    auth: { authorization: `Bearer ${body.data.token}` },
  }
}

/** The fake network's page token for `pageId`, issued to the user with `facebookId`. */
export const pageToken = (pageId: string, facebookId: string): string => `page:${pageId}@${facebookId}`

/** Registers (and so binds) a page for a logged-in user, as the app does when the page is opened. */
export async function registerPage(app: FastifyInstance, who: LoggedIn, pageId: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/page',
    headers: who.auth,
    payload: { id: pageId, name: `Page ${pageId}`, access_token: pageToken(pageId, who.user.facebook_id) },
  })
  if (res.statusCode !== 200) throw new Error(`page registration failed: ${res.statusCode} ${res.body}`)
}

/** Creates a one-recipient bulk job on the page (`POST /api/v2/messages`): 201, or the refusal. */
export function createMessage(app: FastifyInstance, who: Pick<LoggedIn, 'auth'>, pageId: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/messages',
    headers: who.auth,
    payload: {
      page_id: pageId,
      message_type_id: 3,
      message: 'Hello',
      label: '[]',
      total_messages: 1,
      branded_messages_amount: 0,
    },
  })
}

/** A bulk job of `count` recipients (ids 1..count) handed to the server before anything was sent. */
export async function serverSentJob(
  app: FastifyInstance,
  box: TokenBox,
  facebookId: string,
  count: number,
): Promise<{ id: string; who: LoggedIn }> {
  const job = await bulkJobWithRecipients(app, facebookId, count, { prefix: '' })
  await handToServer(app, box, job.who, job.id)
  return job
}

/** The device hands the job to the server before it sent anything (its first lease, nothing uncertain). */
export async function handToServer(
  app: FastifyInstance,
  box: TokenBox,
  who: LoggedIn,
  id: string,
): Promise<void> {
  await handOver(app.store, box, who.user.id, id, {
    lease: 0,
    page_token: 'page-token',
    cursor: 0,
    results: [],
    uncertain: [],
  })
}

/**
 * An owner signed in as `facebookId` with the page of the same id and 100 messages, and a bulk message of
 * `text` to `count` recipients (ids `<prefix><n>` from 0, or from 1 with prefix ''), its list stored.
 */
export async function bulkJobWithRecipients(
  app: FastifyInstance,
  facebookId: string,
  count: number,
  { text = 'Hello', prefix = 'r' }: { text?: string; prefix?: string } = {},
): Promise<{ id: string; who: LoggedIn }> {
  const who = await login(app, facebookId)
  await registerPage(app, who, facebookId)
  await setAllowance(app, facebookId, { subscriptions_messages: 100 })
  const id = await createBulkMessage(app, who, facebookId, text, count)
  const first = prefix ? 0 : 1
  const recipients = Array.from({ length: count }, (_, i) => ({
    recipient_id: `${prefix}${i + first}`,
    name: `Person ${i + first}`,
    conversation_id: `c${prefix}${i + first}`,
  }))
  await app.inject({
    method: 'PUT',
    url: `/api/v2/messages/${id}/recipients`,
    headers: who.auth,
    payload: { recipients },
  })
  return { id, who }
}

/** A bulk message of `text` to `total` recipients of the page, created as the wizard does: answers its id. */
export async function createBulkMessage(
  app: FastifyInstance,
  who: Pick<LoggedIn, 'auth'>,
  pageId: string,
  text: string,
  total: number,
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v2/messages',
    headers: who.auth,
    payload: {
      page_id: pageId,
      message_type_id: 1,
      message: text,
      label: '[]',
      total_messages: total,
      branded_messages_amount: 0,
    },
  })
  if (created.statusCode !== 201)
    throw new Error(`the message was refused: ${created.statusCode} ${created.body}`)
  return (created.json() as { id: string }).id
}

/** Sets a user's allowance directly (tests of the spending rules). */
export async function setAllowance(
  app: FastifyInstance,
  facebookId: string,
  values: Partial<Record<'subscriptions_messages' | 'addons_messages' | 'unlimited_sent', number>> &
    Partial<Record<'is_unlimited' | 'unlimited_blocked' | 'use_branded_messages', boolean>> & {
      access_type?: 'trial' | 'paid'
    },
): Promise<void> {
  const store = app.store
  const keys = Object.keys(values)
  const sets = keys.map((k, i) => `${k} = $${i + 2}`).join(', ')
  await store.query(
    `UPDATE subscriptions SET ${sets} WHERE user_id = (SELECT id FROM users WHERE facebook_id = $1)`,
    [facebookId, ...keys.map((k) => values[k as keyof typeof values] as string | number | boolean)],
  )
}

/** Runs a store-dependent suite on PGlite always, and on PostgreSQL when TEST_DATABASE_URL is set. */
export function onEveryStore(title: string, suite: (kind: StoreKind) => void): void {
  describe(`${title} (PGlite)`, () => suite('pglite'))
  describe.skipIf(!TEST_DATABASE_URL)(
    TEST_DATABASE_URL ? `${title} (PostgreSQL)` : `${title}: PostgreSQL: skipped (TEST_DATABASE_URL not set)`,
    () => suite('postgres'),
  )
}
