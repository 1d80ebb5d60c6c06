/** What the end-to-end tests read from the sandbox: the demo pages and the log of accepted messages. */
import type { Page } from '@playwright/test'
import { demoPageIds } from '../../../src/sandbox/state/demo.ts'

/** The sandbox's default seed (SANDBOX_SEED in src/server/config.ts). */
export const pages = demoPageIds(20260427)

export interface SentEntry {
  page_id: string
  recipient_id: string
  messaging_type: string
  tag: string | null
  text: string | null
  attachment: { url: string } | { attachment_id: string } | null
  /** ISO time with milliseconds */
  at: string
}

export async function sentLog(baseURL: string): Promise<SentEntry[]> {
  const res = await fetch(`${baseURL}/sandbox/sent`)
  return ((await res.json()) as { data: SentEntry[] }).data
}

/** Facebook refuses every reply `page` sends from the large page (error 551: the person is not available). */
export async function refuseReplies(page: Page): Promise<void> {
  await page.route(new RegExp(`/sandbox/graph/[^?]*/${pages.large}/messages`), (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            error: {
              message: "(#551) This person isn't available right now.",
              type: 'OAuthException',
              code: 551,
              error_subcode: 1545041,
              fbtrace_id: 'Atrace551',
            },
          },
        })
      : route.fallback(),
  )
}
