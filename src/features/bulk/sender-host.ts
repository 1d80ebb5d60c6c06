/**
 * The tab's side of the sender: starts the worker (idempotent), hands it the API token, page tokens and
 * config (memory only), refreshes a page token when a sender asks (see page-token.ts), and turns sender events into
 * notifications and subscription updates. Every tab runs one; the Web Lock lets only one of them send.
 * Signing out stops every tab's sender (`stopBulkSenders`); the next sign-in starts a new one.
 */
import { apiToken } from '../../shared/api'
import { db } from '../../device/db/db.ts'
import { loadClientConfig } from '../../shared/config'
import { notify } from '../../shared/notifications'
import { refreshedPageToken, sessionStore, setSubscription } from '../../shared/session'
import { createSenderApi } from '../../device/bulk/api-port.ts'
import {
  broadcastChannel,
  bulkMessage,
  isBulkMessage,
  SENDER_LOCK,
  type BulkMessage,
} from '../../device/bulk/protocol.ts'
import type { JobRecord } from '../../device/bulk/records.ts'
import { syncRecipients } from '../../device/bulk/sync-recipients.ts'
import { flushTouches } from '../../device/bulk/touch-outbox.ts'
import {
  handOverClosingJob,
  handOverJob,
  handsOver,
  takeBackJob,
  takenBackToSend,
} from '../../device/bulk/handover.ts'
import { rejectionNotice } from './model/rejection.ts'

/** Hidden this long, the app hands its "keep sending" jobs to the server (a phone stops hidden apps soon). */
export const HAND_OVER_AFTER_MS = 30_000

/** How long signing out waits for a sender in another tab to let go (a frozen tab never answers). */
const STOP_WAIT_MS = 5_000

let worker: Worker | undefined
let starting: Promise<void> | undefined
/** Undoes what `start` set up (listeners, subscriptions), so a stopped sender leaves nothing running. */
const cleanups: (() => void)[] = []
/** Moves on at each stop, so a start still loading its config when the stop came gives up. */
let generation = 0
const channel = typeof BroadcastChannel === 'undefined' ? undefined : broadcastChannel()
/** This tab's worker holds the sender lock: only the sending tab hands jobs over. */
let holding = false

const transport = () => ({ origin: location.origin, token: () => apiToken() ?? '' })

/** Gives the server every job the owner wants carried on (the app is hidden or closing). */
async function handOverAll() {
  if (!holding || !apiToken()) return
  const tokens = pageTokens()
  const list = (await db.bulkJobs.toArray()) as JobRecord[]
  for (const job of list) {
    const token = tokens[job.pageId]
    if (handsOver(job) && token) await handOverJob(transport(), job.id, token)
  }
  await refreshSnapshot()
}

/**
 * What a closing page can send at once: `pagehide` gives no time to read IndexedDB, so the "keep sending" jobs
 * are kept here, read again whenever a job moves.
 */
let snapshot: JobRecord[] = []
async function refreshSnapshot() {
  snapshot = ((await db.bulkJobs.toArray()) as JobRecord[]).filter((j) => j.keepSending)
}

/** The page is going: each "keep sending" job is handed over in a request that outlives the page. */
function handOverClosing() {
  const token = apiToken()
  if (!holding || !token) return
  const tokens = pageTokens()
  for (const job of snapshot) {
    const pageToken = tokens[job.pageId]
    if (!handsOver(job) || !pageToken) continue
    handOverClosingJob(transport(), job, pageToken)
  }
}

let taking: Promise<void> | undefined
/**
 * The app is back (or starts): every "keep sending" job not at rest comes back from the server before this
 * device sends it, and the sender goes on with it. A job the server could not be asked about stays with the
 * server (`on_server`) until it can.
 */
function takeBackAll(starting = false): Promise<void> {
  taking ??= (async () => {
    if (!apiToken()) return
    // At start (no sender runs yet) a "keep sending" job may be on the server even if this device's record
    // missed the hand-over (the page closed first); later, only the jobs marked as handed over.
    const held = ((await db.bulkJobs.toArray()) as JobRecord[]).filter(
      (j) => takenBackToSend(j) && (j.state === 'on_server' || (starting && handsOver(j))),
    )
    if (held.length === 0) return
    if (!navigator.onLine) {
      for (const job of held) await db.bulkJobs.update(job.id, { state: 'on_server' })
      return
    }
    // The device's undelivered results first: the server's record is then complete when it is adopted.
    await flushTouches(createSenderApi(location.origin, () => apiToken() ?? '')).catch(() => undefined)
    let any = false
    for (const job of held) {
      const back = await takeBackJob(transport(), job.id)
      if (!back) await db.bulkJobs.update(job.id, { state: 'on_server' })
      any = back || any
    }
    if (any) wakeSender('control')
  })()
    .catch((err: unknown) => console.warn('the bulk jobs could not be taken back', err))
    .finally(() => (taking = undefined))
  return taking
}

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
  const token = await refreshedPageToken(pageId, 'bulk')
  const message = token
    ? bulkMessage.tokens({ ...pageTokens(), [pageId]: token }, apiToken())
    : bulkMessage.noToken(pageId)
  post(message)
  channel?.post(message)
}

function onEvent(message: BulkMessage) {
  if (message.type === 'stop') stopHere()
  else if (message.type === 'progress') void refreshSnapshot()
  else if (message.type === 'allowance') setSubscription(message.subscription)
  else if (message.type === 'rejected') {
    notify(rejectionNotice(message))
  } else if (message.type === 'need-token') void refreshFor(message.pageId)
}

async function start() {
  const mine = generation
  // The worker's script loads while the config is read: a resumed job's first send waits for both.
  const created = new Worker(new URL('../../worker/entry.ts', import.meta.url), {
    type: 'module',
    name: 'bulk-sender',
  })
  created.addEventListener('message', (e: MessageEvent) => {
    if (!isBulkMessage(e.data)) return
    // The lock is this tab's worker's own news; the channel's lock messages are other tabs'.
    if (e.data.type === 'lock') {
      holding = e.data.holding
      if (holding && document.visibilityState === 'visible') void takeBackAll()
      return
    }
    onEvent(e.data)
  })
  cleanups.push(() => created.terminate())
  let config: Awaited<ReturnType<typeof loadClientConfig>>
  try {
    config = await loadClientConfig()
  } catch (err) {
    created.terminate()
    throw err
  }
  if (mine !== generation) return created.terminate()
  // Jobs the server may hold come back first: the worker never sends one the server is sending.
  await takeBackAll(true)
  await refreshSnapshot().catch(() => undefined)
  if (mine !== generation) return created.terminate()
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
  if (channel) cleanups.push(channel.subscribe(onEvent))
  // New page tokens (login, refresh) reach the worker as soon as the session has them.
  let last = JSON.stringify(pageTokens())
  cleanups.push(
    sessionStore.subscribe(() => {
      const tokens = pageTokens()
      const key = JSON.stringify(tokens)
      if (key === last) return
      last = key
      post(bulkMessage.tokens(tokens, apiToken()))
    }),
  )
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined
  const online = () => {
    post(bulkMessage.wake('online'))
    if (document.visibilityState === 'visible') void takeBackAll()
  }
  const shown = () => {
    post(bulkMessage.wake('visible'))
    void takeBackAll()
  }
  const visible = () => {
    clearTimeout(hiddenTimer)
    if (document.visibilityState === 'visible') {
      post(bulkMessage.wake('visible'))
      void takeBackAll()
    } else hiddenTimer = setTimeout(() => void handOverAll(), HAND_OVER_AFTER_MS)
  }
  // Closing (or leaving for another site): the hand-over goes with `keepalive`, so it outlives the page.
  const leaving = () => handOverClosing()
  addEventListener('online', online)
  addEventListener('pageshow', shown)
  addEventListener('pagehide', leaving)
  document.addEventListener('visibilitychange', visible)
  cleanups.push(() => {
    clearTimeout(hiddenTimer)
    holding = false
    removeEventListener('online', online)
    removeEventListener('pageshow', shown)
    removeEventListener('pagehide', leaving)
    document.removeEventListener('visibilitychange', visible)
  })
}

/** Ends this tab's sender at once (a send in flight is cut off; its write-ahead row says it is uncertain). */
function stopHere() {
  generation++
  for (const undo of cleanups.splice(0)) undo()
  worker = undefined
  starting = undefined
}

/**
 * Before signing out: every tab's sender stops, and once none holds the sender lock (or after a few seconds,
 * for a frozen tab), what the server needs to resume the jobs later is handed to it while the session still
 * works: the queued results (touches) and the recipient lists not yet sent. Offline, that is skipped.
 */
export async function stopBulkSenders(): Promise<void> {
  channel?.post(bulkMessage.stop())
  stopHere()
  if (typeof navigator.locks === 'undefined') return
  await navigator.locks
    .request(SENDER_LOCK, { signal: AbortSignal.timeout(STOP_WAIT_MS) }, () => handOverToServer())
    .catch((err: unknown) => console.warn('the bulk sends could not be handed over before signing out', err))
}

async function handOverToServer(): Promise<void> {
  if (!navigator.onLine || !apiToken()) return
  const api = createSenderApi(location.origin, () => apiToken() ?? '')
  await flushTouches(api).catch(() => undefined)
  const open = (await db.bulkJobs.toArray()) as JobRecord[]
  for (const job of open)
    if (job.state !== 'finished' && job.state !== 'stopped' && !job.recipientsSynced)
      await syncRecipients(api, job.id)
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
