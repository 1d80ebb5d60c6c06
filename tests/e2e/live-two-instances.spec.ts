/**
 * Two server instances on one PostgreSQL database: a customer message taken by one instance reaches the open
 * app of a client connected to the other, without a reload. Each instance is a whole product stack (API,
 * sandbox, app) with its own port and data folder; both share a throwaway database.
 *
 * The sandbox's state lives in each process (both are seeded alike, so they hold the same pages and
 * customers): the owner signs in through instance B's sandbox and reads the inbox from B; the customer writes
 * on instance A's sandbox, which posts its signed webhook to A's own /webhooks/messenger. Only the database
 * joins them: the session made on B is valid on A, and A's event reaches B's stream through LISTEN/NOTIFY.
 *
 * Needs TEST_DATABASE_URL (a PostgreSQL server and a role that may create databases; CI sets it); skipped
 * without it.
 */
import { test as base, expect } from '@playwright/test'
import { openInbox, pages } from './inbox-support.ts'
import { cachedConversation, customerWrites, streamOpen } from './live-support.ts'
import { createThrowawayDatabase, TEST_DATABASE_URL, type ThrowawayDatabase } from './support/database.ts'
import { loginAsDemo } from './support/login.ts'
import { type Stack, startStack } from './support/stack.ts'

interface Instances {
  database: ThrowawayDatabase
  a: Stack
  b: Stack
}

const SKIP_REASON = 'TEST_DATABASE_URL is not set: two instances need a PostgreSQL database to share'
if (!TEST_DATABASE_URL) console.log(`live-two-instances: skipped (${SKIP_REASON})`)

/** A generous bound: the event crosses in well under a second; a loaded machine must not fail the test. */
const ARRIVAL_TIMEOUT = 30_000

const test = base.extend<object, { instances: Instances }>({
  instances: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const database = await createThrowawayDatabase(TEST_DATABASE_URL!)
      const started: Stack[] = []
      try {
        // One after the other: the first migrates the empty database, the second finds it ready.
        for (let i = 0; i < 2; i++) started.push(await startStack({ DATABASE_URL: database.url }))
        await use({ database, a: started[0]!, b: started[1]! })
      } finally {
        for (const stack of started.reverse()) await stack.stop()
        await database.drop()
      }
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  baseURL: async ({ instances }, use) => use(instances.b.url),
})

interface WebhookLog {
  log: { kind: string; mid?: string; outcome: string; status?: number }[]
}

async function webhookLog(stack: Stack): Promise<WebhookLog['log']> {
  return ((await (await fetch(`${stack.url}/sandbox/webhooks`)).json()) as WebhookLog).log
}

test.describe(
  TEST_DATABASE_URL ? 'two server instances' : `two server instances: skipped (${SKIP_REASON})`,
  () => {
    test.skip(!TEST_DATABASE_URL, SKIP_REASON)

    test('a customer message taken by instance A shows live in the inbox of a client on instance B', async ({
      page,
      context,
      instances,
    }) => {
      const { a, b } = instances
      await loginAsDemo(page)
      await openInbox(page, pages.small)
      await streamOpen(page)

      // The session made on B is the shared database's: A takes it too.
      const session = (await context.cookies(b.url)).find((c) => c.name === 'pagecast_session')!.value
      for (const stack of [a, b]) {
        const res = await fetch(`${stack.url}/api/v2/user`, {
          headers: { authorization: `Bearer ${decodeURIComponent(session)}` },
        })
        expect(res.status, stack.url).toBe(200)
      }

      const rows = page.getByTestId('conversation-row')
      const id = (await rows.nth(3).getAttribute('data-conversation-id'))!
      const before = (await cachedConversation(page, pages.small, id))!
      const text = `Across ${Date.now() % 100_000}`
      const sentAt = Date.now()
      const written = await customerWrites(a.url, pages.small, before.customerId, text)

      await expect
        .poll(() => rows.first().getAttribute('data-conversation-id'), {
          timeout: ARRIVAL_TIMEOUT,
          intervals: [50],
        })
        .toBe(id)
      const ms = Date.now() - sentAt
      test.info().annotations.push({
        type: 'arrival',
        description: `instance A to a client of instance B: ${ms} ms after the customer wrote`,
      })
      console.log(
        `live-two-instances: instance A to a client of instance B ${ms} ms after the customer wrote`,
      )
      await expect(rows.first().getByTestId('conversation-snippet')).toHaveText(text)
      await expect(rows.first().getByTestId('conversation-unread')).toHaveAttribute(
        'data-count',
        String(before.unreadCount + 1),
      )

      // It went through A alone: A's sandbox posted the webhook to A (accepted), B's sandbox sent none.
      expect(await webhookLog(a)).toContainEqual(
        expect.objectContaining({ kind: 'message', mid: written.mid, outcome: 'sent', status: 200 }),
      )
      expect((await webhookLog(b)).filter((entry) => entry.mid === written.mid)).toEqual([])
    })
  },
)
