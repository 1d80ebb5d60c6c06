/** Helpers of the inbox end-to-end tests: the demo page ids, the sandbox's sent log, list scrolling. */
import { type Page, expect } from '@playwright/test'
import { pages, sentLog, type SentEntry } from './support/sandbox.ts'

export { pages, sentLog, type SentEntry }

export async function openInbox(page: Page, pageId = pages.large): Promise<void> {
  await page.goto(`/${pageId}`)
  await expect(page.getByTestId('page-inbox')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
}

/** Scrolls the conversation list to its end once. */
export async function scrollListToEnd(page: Page): Promise<void> {
  await page.getByTestId('conversation-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
}

export async function rowCount(page: Page): Promise<number> {
  return page.getByTestId('conversation-list').evaluate((el) => {
    const inner = el.firstElementChild as HTMLElement | null
    return Math.round((inner?.getBoundingClientRect().height ?? 0) / 64)
  })
}

/** A tiny valid PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
