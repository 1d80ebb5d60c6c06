/// <reference lib="webworker" />
/**
 * The sender worker: wires the tab's settings (tokens in memory only), the progress channel and the
 * `online` event to the sender. All logic lives in the modules it imports.
 */
import { createSenderApi } from '../device/bulk/api-port.ts'
import { createGraphClient } from '../core/graph/client.ts'
import { broadcastChannel, bulkMessage, isBulkMessage, type SenderSettings } from '../device/bulk/protocol.ts'
import type { Subscription } from '../core/bulk/ports.ts'
import { startSender } from './sender.ts'
import { createWaker } from './waker.ts'

declare const self: DedicatedWorkerGlobalScope

const waker = createWaker()
const channel = broadcastChannel()
let settings: SenderSettings | undefined
let subscription: Subscription = null
const pageTokens = new Map<string, string>()
/** Pages a tab found without a token in the accounts list, until a token for them arrives. */
const refused = new Set<string>()

function accept(tokens: Record<string, string>) {
  for (const [pageId, token] of Object.entries(tokens)) {
    pageTokens.set(pageId, token)
    refused.delete(pageId)
  }
}

function refuse(pageId: string) {
  if (pageTokens.has(pageId)) return
  refused.add(pageId)
  waker.wake()
}

function begin(s: SenderSettings) {
  settings = s
  subscription = s.subscription
  accept(s.pageTokens)
  startSender({
    graph: createGraphClient({ baseUrl: s.graphUrl, version: s.graphVersion, timeoutMs: 30_000 }),
    api: createSenderApi(s.apiBase, () => settings?.apiToken ?? ''),
    channel,
    pageToken: (pageId) => pageTokens.get(pageId),
    dropPageToken: (pageId) => pageTokens.delete(pageId),
    tokenRefused: (pageId) => refused.has(pageId),
    subscription: () => subscription,
    setSubscription: (sub) => (subscription = sub),
    now: () => Date.now(),
    random: Math.random,
    sleep: waker.sleep,
    pacingScale: s.pacingScale,
    announce: (message) => self.postMessage(message),
  })
}

self.addEventListener('message', (event: MessageEvent) => {
  const message: unknown = event.data
  if (!isBulkMessage(message)) return
  if (message.type === 'stop') self.close()
  else if (message.type === 'start' && !settings) begin(message.settings)
  else if (message.type === 'tokens') {
    accept(message.pageTokens)
    if (settings && message.apiToken) settings.apiToken = message.apiToken
    waker.wake()
  } else if (message.type === 'wake') waker.wake()
  else if (message.type === 'no-token') refuse(message.pageId)
  else if (message.type === 'allowance') subscription = message.subscription
})

channel.subscribe((message) => {
  // Another tab is signing out: this sender must not write once the device's data is wiped.
  if (message.type === 'stop') self.close()
  else if (message.type === 'wake') waker.wake()
  else if (message.type === 'no-token') refuse(message.pageId)
  else if (message.type === 'tokens') {
    accept(message.pageTokens)
    waker.wake()
  }
})

self.addEventListener('online', () => waker.wake())
self.postMessage(bulkMessage.lock(false))
