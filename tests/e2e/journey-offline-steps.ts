/** Steps of the phone journey on a lost connection: an offline reload in a chat, replies queued offline. */
import { expect } from '@playwright/test'
import { type Journey, shot, waitForServiceWorker } from './journey-support.ts'
import { pages, sentLog } from './support/sandbox.ts'

export const offlineSteps = {
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
    // In a chat on a phone the reply box says it (the page's offline line steps aside for the conversation).
    const offline = page.locator(
      '[data-testid="offline-indicator"]:visible, [data-testid="composer-offline"]:visible',
    )
    await expect(offline.first()).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('chat-view')).toBeVisible()
    const text = `Sent from the bus ${j.run}`
    await page.getByTestId('reply-text').fill(text)
    await page.getByTestId('reply-send').click()
    await expect(page.getByTestId('pending-reply').filter({ hasText: text })).toBeVisible()
    await shot(j, 'offline-reply-queued')

    await context.setOffline(false)
    await expect(offline).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('pending-reply')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('chat-message').filter({ hasText: text })).toBeVisible()
    // Still in the same chat: the reconnect re-entered the page in the background.
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(j.chatUrl)
    await expect(page.getByTestId('chat-view')).toBeVisible()
    await expect.poll(async () => (await sentLog(j.baseURL)).filter((s) => s.text === text).length).toBe(1)
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
}
