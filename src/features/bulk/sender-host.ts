/**
 * The tab's side of the sender: starts the worker (idempotent), hands it the API token, page tokens and
 * config (memory only), refreshes a page token when a sender asks (see page-token.ts), and turns sender events into
 * notifications and subscription updates. Every tab runs one; the Web Lock lets only one of them send.
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { apiToken } from '../../shared/api'
import { loadClientConfig } from '../../shared/config'
import { notify } from '../../shared/notifications'
import { freshPageToken, sessionStore, setSubscription } from '../../shared/session'
import { broadcastChannel, bulkMessage, isBulkMessage, type BulkMessage } from '../../worker/protocol.ts'

let worker: Worker | undefined
let starting: Promise<void> | undefined
const channel = typeof BroadcastChannel === 'undefined' ? undefined : broadcastChannel()

function pageTokens(): Record<string, string> {
  const tokens: Record<string, string> = {}
  for (const account of sessionStore.getState().accounts)
    if (account.access_token) tokens[account.id] = account.access_token
  return tokens
}

function post(message: BulkMessage) {
  worker?.postMessage(message)
}

/** A sender asked for the page's token: one refresh (shared, backed off), answered with it or without. */
async function refreshFor(pageId: string) {
  const token = await freshPageToken(pageId)
  const message = token
    ? bulkMessage.tokens({ ...pageTokens(), [pageId]: token }, apiToken())
    : bulkMessage.noToken(pageId)
  post(message)
  channel?.post(message)
}

function onEvent(message: BulkMessage) {
  if (message.type === 'allowance') setSubscription(message.subscription)
  else if (message.type === 'rejected') {
    notify({
      kind: 'error',
      title: i18n._(msg`Message rejected`),
      message: `${message.recipientName}: ${message.error}`,
      persistent: true,
    })
  } else if (message.type === 'need-token') void refreshFor(message.pageId)
}

async function start() {
  // The worker's script loads while the config is read: a resumed job's first send waits for both.
  const created = new Worker(new URL('../../worker/entry.ts', import.meta.url), {
    type: 'module',
    name: 'bulk-sender',
  })
  created.addEventListener('message', (e: MessageEvent) => {
    if (isBulkMessage(e.data)) onEvent(e.data)
  })
  let config: Awaited<ReturnType<typeof loadClientConfig>>
  try {
    config = await loadClientConfig()
  } catch (err) {
    created.terminate()
    throw err
  }
  worker = created
  post(
    bulkMessage.start({
      apiBase: location.origin,
      apiToken: apiToken() ?? '',
      graphUrl: config.graphUrl,
      graphVersion: config.graphVersion,
      pacingScale: config.pacingScale,
      pageTokens: pageTokens(),
      subscription: sessionStore.getState().subscription ?? null,
    }),
  )
  channel?.subscribe(onEvent)
  // New page tokens (login, refresh) reach the worker as soon as the session has them.
  let last = JSON.stringify(pageTokens())
  sessionStore.subscribe(() => {
    const tokens = pageTokens()
    const key = JSON.stringify(tokens)
    if (key === last) return
    last = key
    post(bulkMessage.tokens(tokens, apiToken()))
  })
  const wake = (reason: 'online' | 'visible') => () => post(bulkMessage.wake(reason))
  addEventListener('online', wake('online'))
  addEventListener('pageshow', wake('visible'))
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') post(bulkMessage.wake('visible'))
  })
}

/** Starts this tab's sender once; later calls do nothing. Call it after login. */
export function startBulkSender(): Promise<void> {
  if (typeof Worker === 'undefined') return Promise.resolve()
  starting ??= start().catch((err: unknown) => {
    starting = undefined
    console.error('the bulk sender could not start', err)
  })
  return starting
}

/** Wakes the sender after a change made in this tab (a control from a card). */
export function wakeSender(reason: 'job-added' | 'control' = 'control') {
  post(bulkMessage.wake(reason))
  channel?.post(bulkMessage.wake(reason))
}
