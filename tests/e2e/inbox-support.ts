/** Helpers of the inbox end-to-end tests: the demo page ids, the sandbox's sent log, list scrolling. */
import { type Page, expect } from '@playwright/test'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'

/** The sandbox's default seed (SANDBOX_SEED in src/server/config.ts). */
export const pages = demoPageIds(20260427)

export interface SentEntry {
  page_id: string
  recipient_id: string
  messaging_type: string
  tag: string | null
  text: string | null
  attachment: { url: string } | { attachment_id: string } | null
}

export async function sentLog(baseURL: string): Promise<SentEntry[]> {
  const res = await fetch(`${baseURL}/sandbox/sent`)
  return ((await res.json()) as { data: SentEntry[] }).data
}

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
