/**
 * Helpers of the live-inbox end-to-end tests: a customer writing through the sandbox (which sends the signed
 * webhook, as the network does), signed webhooks posted directly (exact watermarks), and what the app's local
 * database holds.
 */
import { createHmac } from 'node:crypto'
import { type Page, expect } from '@playwright/test'
import type { ConversationState } from '../../src/core/contracts/conversation-states.ts'
import type { CachedConversation } from '../../src/device/db/db.ts'
import { shownUnread } from '../../src/core/policy/needs-reply.ts'


/** The app secret the test stack runs with (FB_APP_SECRET's default outside production). */
const APP_SECRET = 'sandbox-secret'

type Messaging = Record<string, unknown>

/** Posts one signed webhook body with the page's events; the server answers 200 at once. */
export async function postWebhook(baseURL: string, pageId: string, messaging: Messaging[]): Promise<void> {
  const body = JSON.stringify({ object: 'page', entry: [{ id: pageId, time: Date.now(), messaging }] })
  const signature = createHmac('sha256', APP_SECRET).update(body).digest('hex')
  const res = await fetch(`${baseURL}/webhooks/messenger`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` },
    body,
  })
  expect(res.status).toBe(200)
}

/** The customer writes to the page now: the sandbox stores the message and sends its webhook. */
export async function customerWrites(baseURL: string, pageId: string, customerId: string, text: string) {
  const res = await fetch(`${baseURL}/sandbox/customer-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: pageId, customer_id: customerId, text }),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { mid: string; conversation_id: string }
}

/** A customer who never wrote to the page writes now: the sandbox opens a new conversation and sends the webhook. */
export async function newCustomerWrites(baseURL: string, pageId: string, name: string, text: string) {
  const res = await fetch(`${baseURL}/sandbox/customer-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page_id: pageId, new_customer: name, text }),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { mid: string; conversation_id: string; customer_id: string }
}

export function customerMessage(
  pageId: string,
  customerId: string,
  text: string,
  at = Date.now(),
): Messaging {
  return {
    sender: { id: customerId },
    recipient: { id: pageId },
    timestamp: at,
    message: { mid: `m_live_${at.toString(36)}_${Math.random().toString(36).slice(2, 8)}`, text },
  }
}

export function receipt(
  pageId: string,
  customerId: string,
  kind: 'delivery' | 'read',
  watermark: number,
): Messaging {
  return {
    sender: { id: customerId },
    recipient: { id: pageId },
    timestamp: watermark,
    [kind]: { watermark },
  }
}

export interface CachedRow {
  id: string
  customerId: string
  unreadCount: number
  snippet: string
}

/** A conversation row of the app's local database (what an offline reload shows). */
export async function cachedConversation(
  page: Page,
  pageId: string,
  id: string,
): Promise<CachedRow | undefined> {
  return page.evaluate(
    ([key]) =>
      new Promise<CachedRow | undefined>((resolve, reject) => {
        const open = indexedDB.open('pagecast')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const request = open.result.transaction('conversations').objectStore('conversations').get(key!)
          request.onsuccess = () => {
            resolve(request.result as CachedRow | undefined)
            open.result.close()
          }
          request.onerror = () => reject(request.error)
        }
      }),
    [`${pageId}:${id}`],
  )
}

/** Waits until this tab's live stream is open (the server then delivers every event to it). */
export async function streamOpen(page: Page): Promise<void> {
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'open', { timeout: 20_000 })
}

/** A page's cached conversations and their states, as the app's local database holds them. */
export async function cachedInbox(
  page: Page,
  pageId: string,
): Promise<{ rows: CachedConversation[]; states: ConversationState[]; whole: boolean }> {
  return page.evaluate(
    ([id]) =>
      new Promise<{ rows: CachedConversation[]; states: ConversationState[]; whole: boolean }>(
        (resolve, reject) => {
          const open = indexedDB.open('pagecast')
          open.onerror = () => reject(open.error)
          open.onsuccess = () => {
            const tx = open.result.transaction(['conversations', 'conversationStates', 'inboxSync'])
            const rows = tx.objectStore('conversations').getAll()
            const states = tx.objectStore('conversationStates').getAll()
            const sync = tx.objectStore('inboxSync').get(id!)
            tx.oncomplete = () => {
              const state = sync.result as { done?: boolean; whole?: boolean } | undefined
              resolve({
                rows: (rows.result as CachedConversation[]).filter((r) => r.pageId === id),
                states: (states.result as ConversationState[]).filter((s) => s.pageId === id),
                whole: !!(state?.done || state?.whole),
              })
              open.result.close()
            }
            tx.onerror = () => reject(tx.error)
          }
        },
      ),
    [pageId],
  )
}

/**
 * The page's unread count as the device's cache holds it: the sum of what its rows show (the network's count,
 * or after a broadcast the customer's count kept in the conversation's state: `shownUnread`), and whether the
 * cache holds the whole page.
 */
export async function cachedPageUnread(
  page: Page,
  pageId: string,
): Promise<{ cached: number; whole: boolean }> {
  const { rows, states, whole } = await cachedInbox(page, pageId)
  const byCustomer = new Map(states.map((st) => [st.customerId, st]))
  return { cached: rows.reduce((sum, r) => sum + shownUnread(r, byCustomer.get(r.customerId)), 0), whole }
}
