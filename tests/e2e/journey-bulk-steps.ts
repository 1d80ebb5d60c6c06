/** Steps of the phone journey around a bulk send: the cards beside a page in use, finished, cut off. */
import { expect } from '@playwright/test'
import { composeAndSend, waitForCard } from './bulk-support.ts'
import {
  type Journey,
  box,
  chatFitsTheScreen,
  darkSchemeFaults,
  pageKeepsItsRoom,
  setStripOpen,
  shot,
  strip,
} from './journey-support.ts'
import { pages, sentLog } from './support/sandbox.ts'

export const bulkSteps = {
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
    // The list beside the strip, with its unread counts and sync counter, in the dark colour scheme too.
    await expect(page.getByTestId('sync-status')).toBeVisible()
    // Beside the strip the list shows at least two whole rows, sideways too (its headers are compact there).
    const list = await box(page.getByTestId('conversation-list'))
    const under = (await strip(page).getAttribute('data-layout')) === 'strip'
    const listEnd = under ? Math.min(list.y + list.height, (await box(strip(page))).y) : list.y + list.height
    expect(listEnd - list.y).toBeGreaterThanOrEqual(128)
    // The check sees surfaces: in the light scheme it finds the light ones.
    expect((await darkSchemeFaults(page)).some((f) => f.includes('light surface'))).toBe(true)
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(j, 'dark-inbox-with-strip')
    expect(await darkSchemeFaults(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByTestId('conversation-row').nth(1).click()
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await pageKeepsItsRoom(j)
    // The reply box is on screen beside the strip, never under it, without scrolling the page (sideways too).
    await chatFitsTheScreen(j)
    await shot(j, 'bulk-while-chatting')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(j, 'dark-chat-with-strip')
    expect(await darkSchemeFaults(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
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
}
