/**
 * Replies queued offline go out from any screen, not only from an open chat of their page: whenever the app is
 * signed in and online (at start, on `online`, when the page tokens arrive after an offline start), every page
 * with undelivered replies whose token is known is flushed. The flush runs under the same per-page lock as
 * the chat's own (outbox.ts), so each reply is still delivered exactly once.
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { db } from '../../device/db/db.ts'
import { createGraphClient } from '../../core/graph/client.ts'
import type { GraphClient } from '../../core/graph/types.ts'
import { type WindowOptions, type WindowStatus, windowStatus } from '../../core/policy/window.ts'
import { withFreshToken } from '../../core/graph/fresh-token.ts'
import { refreshedPageToken, sessionStore } from '../../shared/session/index.ts'
import { replyTransport } from './api/reply-transport.ts'
import { flushReplies } from './model/outbox.ts'

export interface OutboxFlusherDeps {
  graph: GraphClient
  windowOptions: WindowOptions
}

const refusals = {
  needs_human_agent: msg`More than 24 hours have passed since the customer's last message.`,
  closed: msg`More than 7 days have passed since the customer's last message.`,
  no_customer_message: msg`The customer has not written to the page recently.`,
} as const

const refusal = (s: WindowStatus) =>
  s.reason in refusals ? i18n._(refusals[s.reason as keyof typeof refusals]) : ''

/** The pages that have replies waiting to go (pending, or uncertain after a lost answer). */
async function pagesWithReplies(): Promise<string[]> {
  const waiting = await db.replyOutbox.where('state').anyOf('pending', 'sending').toArray()
  return [...new Set(waiting.map((e) => e.pageId))]
}

function tokenOf(pageId: string): string | undefined {
  return sessionStore.getState().accounts.find((a) => a.id === pageId)?.access_token
}

async function flushPage(pageId: string, token: string, deps: OutboxFlusherDeps): Promise<void> {
  let current = token
  // A token expired on the way (190) is refreshed once through the accounts list, as the inbox does.
  const withToken = <T>(call: (t: string) => Promise<T>): Promise<T> =>
    withFreshToken(
      current,
      async () => {
        const fresh = await refreshedPageToken(pageId, 'inbox')
        if (fresh) current = fresh
        return fresh
      },
      call,
    )
  const transport = replyTransport({
    pageId,
    graph: deps.graph,
    withToken,
    refusal,
    // The window is judged as the composer judges it: from the customer's last message, read from the
    // conversation cache, or from the conversation itself when the cache does not know it.
    async windowFor(conversationId) {
      const row = await db.conversations.get(`${pageId}:${conversationId}`)
      let last = row?.lastCustomerMessageAt
      if (last === undefined) {
        const latest = await transport.latestMessages(conversationId)
        const fromCustomer = latest.filter((m) => m.fromId !== pageId).map((m) => m.createdAt)
        last = fromCustomer.length > 0 ? Math.max(...fromCustomer) : undefined
      }
      return windowStatus(last, Date.now(), deps.windowOptions)
    },
  })
  await flushReplies(transport)
}

/** The signed-in shell's start: the flusher over the Graph client of the app's configuration. */
export function startReplyOutbox(graph: { baseUrl: string; version: string }, windowOptions: WindowOptions) {
  return startOutboxFlusher({ graph: createGraphClient(graph), windowOptions })
}

/** Starts flushing from the signed-in shell; returns the stop. */
export function startOutboxFlusher(deps: OutboxFlusherDeps): () => void {
  let running: Promise<void> | undefined
  let again = false
  let stopped = false
  const flushAll = async () => {
    const state = sessionStore.getState()
    if (state.status !== 'logged_in' || state.offline || !navigator.onLine) return
    for (const pageId of await pagesWithReplies()) {
      const token = tokenOf(pageId)
      if (!token || stopped) continue
      await flushPage(pageId, token, deps).catch((err: unknown) =>
        console.warn('queued replies of a page could not be sent yet', err),
      )
    }
  }
  const request = () => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = flushAll()
      .catch((err: unknown) => console.warn('the reply outbox could not be read', err))
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          request()
        }
      })
  }
  // The pages whose token is known: a new one (the session back after an offline start) is a reason to flush.
  let known = ''
  const onSession = () => {
    const s = sessionStore.getState()
    const next = s.accounts
      .filter((a) => a.access_token)
      .map((a) => a.id)
      .join(',')
    const ready = s.status === 'logged_in' && !s.offline
    const key = ready ? next : ''
    if (key === known) return
    known = key
    if (key) request()
  }
  const offSession = sessionStore.subscribe(onSession)
  window.addEventListener('online', request)
  onSession()
  request()
  return () => {
    stopped = true
    offSession()
    window.removeEventListener('online', request)
  }
}
