/** Helpers of the bulk end-to-end tests: audience truth from the Graph, the sent log, the allowance. */
import { test as base, type Page, expect } from '@playwright/test'
import { stackTest } from './support/fixtures.ts'
import { pages, sentLog, type SentEntry } from './support/sandbox.ts'
import { loginAsDemo } from './support/login.ts'
import { type Stack, startStack } from './support/stack.ts'

export { expect }

export { pages, sentLog, type SentEntry }

/** A tiny valid PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** Signs in through the sandbox login dialog; returns the product API bearer of the session. */
export async function login(page: Page): Promise<string> {
  await loginAsDemo(page)
  return apiToken(page)
}

let specs = 0

/**
 * A stack per Playwright worker with the pacing scaled down (sandbox only), reset before each test. Each call
 * has a stack of its own unless `group` names one to share with the specs of the same settings and group
 * (`stackTest`; `''` is the group of plain `stackTest(env)`): the API's jobs stay on a shared stack, and a spec
 * that waits for "the" card (`waitForCard`) could take a finished card another file left for its own; a spec
 * that follows its cards by job id can share. `freshStackTest` gives a stack per test (a new user database, so
 * allowance tests start from the trial's allowance).
 */
export function bulkTest(env: Record<string, string> = { PACING_SCALE: '0.02' }, group = `spec-${++specs}`) {
  return stackTest(env, group)
}

export function freshStackTest(env: Record<string, string> = { PACING_SCALE: '0.02' }) {
  return base.extend<{ stack: Stack }>({
    // eslint-disable-next-line no-empty-pattern
    stack: async ({}, use) => {
      const stack = await startStack(env)
      await use(stack)
      await stack.stop()
    },
    baseURL: async ({ stack }, use) => use(stack.url),
  })
}

const WINDOW_MS = 23 * 60 * 60 * 1000

export async function apiToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies()
  return cookies.find((c) => c.name === 'pagecast_session')!.value
}

export async function apiGet<T>(baseURL: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${baseURL}/api/v2${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  })
  return (await res.json()) as T
}

export async function available(baseURL: string, token: string): Promise<number> {
  const body = await apiGet<{
    available_messages?: number
    subscription?: { available_messages: number }
    data?: unknown
  }>(baseURL, token, '/user')
  const sub = (body.subscription ??
    (body.data as { subscription?: { available_messages: number } })?.subscription)!
  return sub.available_messages
}

/**
 * Who a bulk send to the page may reach: can_reply and inside the 23-hour margin of the customer's last
 * message (not updated_time, which a page reply moves), per the Graph itself.
 */
export async function eligible(
  baseURL: string,
  pageId: string,
): Promise<{ inside: string[]; outside: string[] }> {
  const config = (await (await fetch(`${baseURL}/api/v2/config`)).json()) as {
    graphUrl: string
    graphVersion: string
  }
  const graphBase = config.graphUrl.startsWith('/') ? `${baseURL}${config.graphUrl}` : config.graphUrl
  const root = `${graphBase}/${config.graphVersion}`
  const tokenRes = await fetch(`${baseURL}/sandbox/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'demo' }),
  })
  const { access_token } = (await tokenRes.json()) as { access_token: string }
  const accounts = (await (
    await fetch(`${root}/me/accounts?fields=id,access_token&limit=100&access_token=${access_token}`)
  ).json()) as { data: { id: string; access_token?: string }[] }
  const pageToken = accounts.data.find((a) => a.id === pageId)!.access_token!
  const inside: string[] = []
  const outside: string[] = []
  let url: string | undefined =
    `${root}/${pageId}/conversations?fields=id,participants,can_reply,messages.limit(10){from,created_time}&limit=50&access_token=${pageToken}`
  const now = Date.now()
  while (url) {
    const body = (await (await fetch(url)).json()) as {
      data: {
        can_reply?: boolean
        participants: { data: { id: string }[] }
        messages?: { data: { from: { id: string }; created_time: string }[] }
      }[]
      paging?: { next?: string }
    }
    for (const c of body.data) {
      if (!c.can_reply) continue
      const id = c.participants.data[0]!.id
      const fromCustomer = (c.messages?.data ?? []).filter((m) => m.from.id !== pageId)
      const last = Math.max(...fromCustomer.map((m) => Date.parse(m.created_time)))
      ;(now - last < WINDOW_MS ? inside : outside).push(id)
    }
    url =
      body.paging?.next && body.paging.next.startsWith('/')
        ? `${baseURL}${body.paging.next}`
        : body.paging?.next
  }
  return { inside, outside }
}

/**
 * The wizard leaves out customers waiting for an answer by default; the sends of these tests go to everyone
 * inside the window, as `eligible` counts them, so they are included.
 */
export async function includeWaiting(page: Page): Promise<void> {
  const include = page.getByTestId('bulk-include-waiting')
  if (await include.isVisible()) await include.check()
}

export async function openWizard(page: Page, pageId = pages.small): Promise<number> {
  await page.goto(`/${pageId}?bulk=1`)
  await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('bulk-loaded')).toHaveText(/^[\d,]+ recipients loaded/, { timeout: 20_000 })
  await includeWaiting(page)
  const window = (await page.getByTestId('bulk-window').textContent()) ?? ''
  return Number(/^([\d,]+)/.exec(window)?.[1]?.replaceAll(',', '') ?? 0)
}

/** Steps 2 and 3 with the defaults, the text, optionally an image, then send. */
export async function composeAndSend(page: Page, text: string, image?: Buffer): Promise<void> {
  await includeWaiting(page)
  await page.getByTestId('bulk-step-2').getByRole('button').first().click()
  await page.getByTestId('bulk-step-3').getByRole('button').first().click()
  await page.getByTestId('bulk-text').fill(text)
  if (image)
    await page
      .getByTestId('bulk-image')
      .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: image })
  await page.getByTestId('bulk-send').click()
  await expect(page.getByText(/Sending message to \d+ recipients, well done!/)).toBeVisible({
    timeout: 20_000,
  })
}

/**
 * The id of the job the next send from `page` creates (`POST /api/v2/messages`). Every device lists the
 * owner's jobs, so on a stack shared with earlier tests its card is found by this id, not by its place.
 */
export async function createdJob(page: Page): Promise<string> {
  const res = await page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v2/messages' && r.request().method() === 'POST',
  )
  const body = (await res.json()) as { id?: string | number; data?: { id?: string | number } }
  const id = body.id ?? body.data?.id
  expect(id).toBeDefined()
  return String(id)
}

export async function waitForCard(page: Page, state: string, timeout = 90_000) {
  const card = page.getByTestId('bulk-card').first()
  await expect(card).toHaveAttribute('data-state', state, { timeout })
  return card
}

/** Every eligible recipient exactly once for this text, nobody outside the window. */
export function checkDelivery(
  sent: SentEntry[],
  text: string,
  expected: { inside: string[]; outside: string[] },
) {
  const texts = sent.filter((s) => s.text?.startsWith(text))
  const ids = texts.map((s) => s.recipient_id)
  expect(new Set(ids).size).toBe(ids.length)
  for (const id of expected.outside) expect(ids).not.toContain(id)
  return ids
}

/** Waits until the sandbox has received at least `n` messages starting with `text`. */
export async function waitForSent(baseURL: string, text: string, n: number, timeout = 60_000): Promise<void> {
  const end = Date.now() + timeout
  for (;;) {
    const got = (await sentLog(baseURL)).filter((s) => s.text?.startsWith(text)).length
    if (got >= n) return
    if (Date.now() > end) throw new Error(`only ${got} of ${n} sends arrived`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function setFaults(baseURL: string, faults: Record<string, unknown>): Promise<void> {
  await fetch(`${baseURL}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  })
}

async function apiCall(baseURL: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}/api/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json() as Promise<Record<string, unknown>>
}

/** Registers the demo user's page with the API, as entering it does, with a page token from the sandbox. */
async function registerDemoPage(baseURL: string, token: string, pageId: string): Promise<void> {
  const network = (await (
    await fetch(`${baseURL}/sandbox/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'demo' }),
    })
  ).json()) as { access_token: string }
  const accounts = (await (
    await fetch(
      `${baseURL}/sandbox/graph/v25.0/me/accounts?fields=id,name,access_token&access_token=${network.access_token}`,
    )
  ).json()) as { data: { id: string; name: string; access_token: string }[] }
  const account = accounts.data.find((a) => a.id === pageId)!
  await apiCall(baseURL, token, 'POST', '/page', {
    id: pageId,
    name: account.name,
    access_token: account.access_token,
  })
}

/** Spends the allowance down to `left` through touches on a throwaway bulk message. */
export async function spendDownTo(
  baseURL: string,
  token: string,
  pageId: string,
  left: number,
): Promise<void> {
  const spend = (await available(baseURL, token)) - left
  if (spend <= 0) return
  await registerDemoPage(baseURL, token, pageId)
  const { id } = (await apiCall(baseURL, token, 'POST', '/messages', {
    page_id: pageId,
    message_type_id: 3,
    message: 'spent elsewhere',
    label: '[]',
    total_messages: spend,
    branded_messages_amount: 0,
  })) as { id: string }
  // Twenty touches at a time: a few hundred one after the other take most of a test's time on a busy machine.
  for (let from = 0; from < spend; from += 20) {
    const batch = Array.from({ length: Math.min(20, spend - from) }, (_, k) => from + k)
    await Promise.all(
      batch.map((i) =>
        apiCall(baseURL, token, 'POST', `/messages/${id}/touch`, {
          _method: 'PUT',
          status: 'OK',
          recipient_id: `x${i}`,
          sent_as_branded: false,
        }),
      ),
    )
  }
  await apiCall(baseURL, token, 'DELETE', `/messages/${id}`)
}

export async function authoriseBranded(baseURL: string, token: string): Promise<void> {
  await apiCall(baseURL, token, 'POST', '/user/confirm-brand-messages-usage', { use_branded_messages: true })
}

/** The card's finished summary must agree with the sandbox log. */
export async function expectCardCounts(page: Page, sent: number, rejected: number): Promise<void> {
  await expect(page.getByTestId('bulk-card').first().getByTestId('bulk-card-summary')).toHaveText(
    `Successfully sent ${sent} messages, ${rejected} rejected`,
  )
}

export interface JobCheck {
  baseURL: string
  token: string
  text: string
  expected: { inside: string[]; outside: string[] }
  before: number
}

/**
 * The invariants every bulk test ends with: each eligible recipient exactly once, nobody outside the window,
 * the card agrees with the log, and the allowance went down by exactly the delivered count.
 */
export async function verifyJob(page: Page, check: JobCheck, rejected = 0): Promise<string[]> {
  const ids = checkDelivery(await sentLog(check.baseURL), check.text, check.expected)
  expect(ids.length + rejected).toBe(check.expected.inside.length)
  for (const id of ids) expect(check.expected.inside).toContain(id)
  await expectCardCounts(page, ids.length, rejected)
  expect(check.before - (await available(check.baseURL, check.token))).toBe(ids.length)
  return ids
}

/** Opens the wizard, starts a send of `text`, and returns what the final check needs. */
export async function startSend(page: Page, baseURL: string, text: string): Promise<JobCheck> {
  const token = await apiToken(page)
  const expected = await eligible(baseURL, pages.small)
  const before = await available(baseURL, token)
  await openWizard(page)
  await composeAndSend(page, text)
  return { baseURL, token, text, expected, before }
}
