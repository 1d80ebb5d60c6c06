/**
 * A page owner's day on a phone (360 x 740, and turned to 740 x 360): sign in, open a page and a chat, Back,
 * a bulk send while the inbox stays in use, an offline reload and the reconnect, a modal closed by Back.
 * Each step is a named function of the journey (`steps` below), so more of the day (search, unread counts,
 * another language) can be added as steps and walked in the same order. Screenshots of every step go to
 * tests/artifacts/phone-journey/.
 */
import { mkdirSync } from 'node:fs'
import type { BrowserContext, Locator, Page } from '@playwright/test'
import { composeAndSend, waitForCard } from './bulk-support.ts'
import { expect, stackTest } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages, sentLog } from './support/sandbox.ts'

// The sends are paced at half the real 800–1500 ms: a send of the small page lasts long enough to be paused
// from its card, whatever the machine's speed (pacing is a lower bound on the duration).
const test = stackTest({ PACING_SCALE: '0.5' })

const SHOTS = 'tests/artifacts/phone-journey'

interface Journey {
  page: Page
  context: BrowserContext
  baseURL: string
  /** Names the screenshots of this walk: `portrait`, `landscape`, `desktop`. */
  run: string
  width: number
  height: number
  /** The address of the chat opened by `openChat`. */
  chatUrl?: string
  shots: number
}

async function shot(j: Journey, name: string): Promise<void> {
  j.shots += 1
  await j.page.screenshot({ path: `${SHOTS}/${j.run}-${String(j.shots).padStart(2, '0')}-${name}.png` })
}

type Box = { x: number; y: number; width: number; height: number }

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox()
  expect(b, 'the element has a layout box').toBeTruthy()
  return b!
}

function intersection(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x)
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y)
  return { x, y, width, height }
}

/**
 * The page keeps its room beside the bulk cards: the content column at least 300 px wide (or the whole
 * width on a narrower screen), the cards' panel never over it, and a usable height of page left.
 */
async function pageKeepsItsRoom(j: Journey): Promise<void> {
  const content = await box(j.page.getByTestId('layout-content'))
  const main = await box(j.page.locator('#main'))
  const panel = await box(j.page.getByTestId('bulk-panel'))
  expect(content.width).toBeGreaterThanOrEqual(Math.min(300, j.width - 60))
  expect(main.width).toBeGreaterThanOrEqual(Math.min(300, j.width - 60))
  const covered = intersection(main, panel)
  expect(covered.width * covered.height, 'the cards cover none of the page').toBeLessThanOrEqual(1)
  expect(main.height).toBeGreaterThanOrEqual(Math.min(100, j.height / 4))
  // Nothing is pushed sideways off the screen.
  expect(await j.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(j.width)
}

async function waitForServiceWorker(page: Page): Promise<void> {
  await page
    .waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 })
    .catch(() => undefined)
}

const strip = (page: Page) => page.getByTestId('bulk-panel')

async function setStripOpen(page: Page, open: boolean): Promise<void> {
  const panel = strip(page)
  if ((await panel.getAttribute('data-layout')) !== 'strip') return
  if ((await panel.getAttribute('data-expanded')) === String(open)) return
  await page.getByTestId('bulk-strip-toggle').click()
  await expect(panel).toHaveAttribute('data-expanded', String(open))
}

export const steps = {
  async signIn(j: Journey) {
    await loginAsDemo(j.page)
    await expect(j.page.getByTestId('page-card').first()).toBeVisible()
    await shot(j, 'signed-in')
  },

  async openPage(j: Journey) {
    await j.page.locator(`a[data-testid="page-card"][href="/${pages.small}"]`).click()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
    await shot(j, 'page-opened')
  },

  async openChat(j: Journey) {
    await j.page.getByTestId('conversation-row').first().click()
    await expect(j.page).toHaveURL(/\?c=/)
    await expect(j.page.getByTestId('chat-view')).toBeVisible()
    await expect(j.page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    j.chatUrl = new URL(j.page.url()).pathname + new URL(j.page.url()).search
    await shot(j, 'chat-opened')
  },

  /** The platform's Back: from the chat to the list, then home (opening the chat pushed an entry). */
  async backToListThenHome(j: Journey) {
    await j.page.goBack()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible()
    await expect(j.page.getByTestId('chat-view')).toHaveCount(0)
    await shot(j, 'back-to-list')
    await j.page.goBack()
    await expect(j.page.getByTestId('page-card').first()).toBeVisible()
    expect(new URL(j.page.url()).pathname).toBe('/')
    await shot(j, 'back-home')
  },

  /** A chat's address opened cold shows that chat; its back control then shows the list. */
  async deepLinkToChat(j: Journey) {
    expect(j.chatUrl).toBeTruthy()
    await j.page.goto(j.chatUrl!)
    await expect(j.page.getByTestId('chat-view')).toBeVisible({ timeout: 20_000 })
    await expect(j.page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    await shot(j, 'deep-link-chat')
    await j.page.getByRole('button', { name: 'Back to conversations' }).click()
    await expect(j.page.getByTestId('conversation-row').first()).toBeVisible()
    await expect(j.page).toHaveURL(new RegExp(`/${pages.small}$`))
  },

  /**
   * A bulk send from the wizard, then the inbox in use while it runs: the wizard closed by Back, a chat
   * opened, the cards opened and the send paused from its card, with the page beside them all along.
   */
  async bulkWhileBrowsing(j: Journey) {
    const { page } = j
    await page.getByTestId('bulk-toggle').click()
    await expect(page).toHaveURL(/bulk=1/)
    await expect(page.getByTestId('bulk-wizard')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('bulk-loaded')).toHaveText(/^\d+ recipients loaded/, { timeout: 20_000 })
    await composeAndSend(page, `Journey ${j.run}`)
    await expect(strip(page)).toBeVisible()
    await setStripOpen(page, true)
    const card = page.getByTestId('bulk-card').first()
    await expect(card).toBeVisible()
    await card.getByRole('button', { name: 'Pause' }).click()
    await expect(card).toHaveAttribute('data-state', 'paused')
    await pageKeepsItsRoom(j)
    await shot(j, 'bulk-cards-open')

    await setStripOpen(page, false)
    if ((await strip(page).getAttribute('data-layout')) === 'strip')
      await expect(page.getByTestId('bulk-strip-summary')).toHaveText(/^Sending \d+ of \d+$/)
    // The wizard was opened over the list: Back closes it.
    await page.goBack()
    await expect(page.getByTestId('bulk-wizard')).toHaveCount(0)
    await page.getByTestId('conversation-row').nth(1).click()
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await pageKeepsItsRoom(j)
    // The reply box is never under the strip (sideways, the chat is taller than the screen even without the
    // strip: the page scrolls to it).
    await page.getByTestId('reply-text').scrollIntoViewIfNeeded()
    const composer = await box(page.getByTestId('reply-text'))
    const panel = await box(strip(page))
    const overComposer = intersection(composer, panel)
    expect(Math.min(overComposer.width, overComposer.height)).toBeLessThanOrEqual(1)
    expect(composer.y + composer.height).toBeLessThanOrEqual(j.height)
    await shot(j, 'bulk-while-chatting')
  },

  /** The send resumed and finished: the page stays whole (also after a reload) until the card is dismissed. */
  async finishAndDismiss(j: Journey) {
    const { page } = j
    await setStripOpen(page, true)
    const card = page.getByTestId('bulk-card').first()
    await card.getByRole('button', { name: 'Resume' }).click()
    await waitForCard(page, 'finished')
    const summary = (await card.getByTestId('bulk-card-summary').textContent()) ?? ''
    const done = Number(/Successfully sent (\d+) messages, 0 rejected/.exec(summary)?.[1])
    expect(done).toBeGreaterThan(0)
    // Every recipient once: the pause and the resume sent nobody twice.
    const sent = (await sentLog(j.baseURL)).filter((s) => s.text === `Journey ${j.run}`)
    expect(new Set(sent.map((s) => s.recipient_id)).size).toBe(sent.length)
    expect(sent).toHaveLength(done)
    await setStripOpen(page, false)
    await pageKeepsItsRoom(j)
    await shot(j, 'bulk-finished')

    await page.reload()
    await expect(page.getByTestId('chat-view')).toBeVisible({ timeout: 20_000 })
    await expect(strip(page)).toBeVisible()
    await pageKeepsItsRoom(j)
    if ((await strip(page).getAttribute('data-layout')) === 'strip') {
      await expect(page.getByTestId('bulk-strip-summary')).toHaveText(/^Sent \d+ of \d+, 0 rejected$/)
      await shot(j, 'bulk-finished-reloaded')
      await page.getByTestId('bulk-strip-dismiss').click()
    } else {
      await shot(j, 'bulk-finished-reloaded')
      await page.getByTestId('bulk-card-close').first().click()
    }
    await expect(strip(page)).toHaveCount(0, { timeout: 15_000 })
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await shot(j, 'bulk-dismissed')
  },

  /**
   * An offline reload in a chat, a reply written offline, the connection back: the owner stays in the chat
   * and the reply reaches the customer once.
   */
  async offlineReloadAndReconnect(j: Journey) {
    const { page, context } = j
    await page.goto(j.chatUrl!)
    await expect(page.getByTestId('chat-message').first()).toBeVisible({ timeout: 20_000 })
    await waitForServiceWorker(page)
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByTestId('offline-indicator')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('chat-view')).toBeVisible()
    const text = `Sent from the bus ${j.run}`
    await page.getByTestId('reply-text').fill(text)
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('pending-reply').filter({ hasText: text })).toBeVisible()
    await shot(j, 'offline-reply-queued')

    await context.setOffline(false)
    await expect(page.getByTestId('offline-indicator')).toBeHidden({ timeout: 20_000 })
    await expect(page.getByTestId('pending-reply')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('chat-message').filter({ hasText: text })).toBeVisible()
    // Still in the same chat: the reconnect re-entered the page in the background.
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(j.chatUrl)
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await expect
      .poll(async () => (await sentLog(j.baseURL)).filter((s) => s.text === text).length)
      .toBe(1)
    await shot(j, 'reconnected-in-chat')
  },

  /** A reply queued offline goes out when the connection returns, whatever screen is open by then. */
  async replyQueuedLeavesFromHome(j: Journey) {
    const { page, context } = j
    await page.goto('/')
    await page.locator(`a[data-testid="page-card"][href="/${pages.small}"]`).click()
    await page.getByTestId('conversation-row').first().click()
    await expect(page.getByTestId('window-notice')).toHaveAttribute('data-reason', 'standard', {
      timeout: 20_000,
    })
    await context.setOffline(true)
    const text = `Queued then went home ${j.run}`
    await page.getByTestId('reply-text').fill(text)
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('pending-reply').filter({ hasText: text })).toBeVisible()
    await page.goBack()
    await page.goBack()
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    await shot(j, 'offline-home-with-queued-reply')
    await context.setOffline(false)
    await expect
      .poll(async () => (await sentLog(j.baseURL)).filter((s) => s.text === text).length, {
        timeout: 20_000,
      })
      .toBe(1)
    expect(new URL(page.url()).pathname).toBe('/')
  },

  /** A bulk send cut off by a lost connection carries on when it returns, with the owner on the home screen. */
  async bulkResumesOnReconnectFromHome(j: Journey) {
    const { page, context } = j
    const text = `Journey offline ${j.run}`
    await page.goto(`/${pages.small}`)
    await page.getByTestId('bulk-toggle').click()
    await expect(page.getByTestId('bulk-loaded')).toHaveText(/^\d+ recipients loaded/, { timeout: 20_000 })
    await composeAndSend(page, text)
    await context.setOffline(true)
    await page.getByRole('link', { name: 'Pagecast home' }).click()
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    await waitForCard(page, 'waiting_connection', 30_000)
    await expect(page.getByTestId('bulk-strip-held')).toHaveText('Waiting for connection')
    await shot(j, 'bulk-waiting-for-connection-at-home')
    await context.setOffline(false)
    const card = await waitForCard(page, 'finished')
    expect(new URL(page.url()).pathname).toBe('/')
    const summary = (await card.getByTestId('bulk-card-summary').textContent()) ?? ''
    const done = Number(/Successfully sent (\d+) messages/.exec(summary)?.[1])
    const sent = (await sentLog(j.baseURL)).filter((s) => s.text === text)
    expect(new Set(sent.map((s) => s.recipient_id)).size).toBe(sent.length)
    expect(sent).toHaveLength(done)
    await shot(j, 'bulk-finished-at-home')
    await page.getByTestId('bulk-strip-dismiss').click()
    await expect(strip(page)).toHaveCount(0, { timeout: 15_000 })
  },

  /** A modal lives in the address: Back closes it and leaves the owner where they were. */
  async modalClosedByBack(j: Journey) {
    const { page } = j
    const before = new URL(page.url()).pathname
    await page.getByRole('button', { name: 'My subscription' }).first().click()
    await expect(page.getByTestId('modal')).toBeVisible()
    await expect(page).toHaveURL(/[?&]modal=user/)
    await shot(j, 'modal-open')
    await page.goBack()
    await expect(page.getByTestId('modal')).toHaveCount(0)
    await expect(page).not.toHaveURL(/modal=/)
    expect(new URL(page.url()).pathname).toBe(before)
    await expect(page.getByTestId('app-layout')).toBeVisible()
    await shot(j, 'modal-closed-by-back')
  },
} satisfies Record<string, (j: Journey) => Promise<void>>

type StepName = keyof typeof steps

async function walk(j: Journey, names: readonly StepName[]): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  for (const name of names) await test.step(name, () => steps[name](j))
}

function journeyOf(page: Page, context: BrowserContext, baseURL: string, run: string): Journey {
  const { width, height } = page.viewportSize()!
  return { page, context, baseURL, run, width, height, shots: 0 }
}

test.describe('on a phone held upright (360 x 740)', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

  test('a page owner walks through a day', async ({ page, context, baseURL }) => {
    test.setTimeout(240_000)
    await walk(journeyOf(page, context, baseURL!, 'portrait'), [
      'signIn',
      'openPage',
      'openChat',
      'backToListThenHome',
      'openPage',
      'bulkWhileBrowsing',
      'finishAndDismiss',
      'deepLinkToChat',
      'offlineReloadAndReconnect',
      'replyQueuedLeavesFromHome',
      'bulkResumesOnReconnectFromHome',
      'modalClosedByBack',
    ])
  })
})

test.describe('on a phone turned sideways (740 x 360)', () => {
  test.use({ viewport: { width: 740, height: 360 }, hasTouch: true, isMobile: true })

  test('the chat, Back, a bulk send beside the inbox and a modal work in landscape', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    await walk(journeyOf(page, context, baseURL!, 'landscape'), [
      'signIn',
      'openPage',
      'openChat',
      'backToListThenHome',
      'openPage',
      'bulkWhileBrowsing',
      'finishAndDismiss',
      'modalClosedByBack',
    ])
  })
})

test.describe('on a desktop (1280 x 800)', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('the cards sit in a column beside the inbox, which keeps its width', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    await walk(journeyOf(page, context, baseURL!, 'desktop'), [
      'signIn',
      'openPage',
      'openChat',
      'bulkWhileBrowsing',
      'finishAndDismiss',
    ])
  })
})
