/**
 * The sandbox's Messenger webhooks: like the network, it POSTs signed `object: "page"` bodies
 * (`X-Hub-Signature-256`, HMAC-SHA256 of the body with the app secret) to the configured callback URL for
 * customer messages, echoes of the page's sends, opt-ins to marketing messages (`messaging_optins`), and delivery and read receipts of a share of the sends after
 * a random delay. Faults (POST /sandbox/faults) drop, duplicate, delay or reorder them, or sign them wrongly.
 * Shapes: tests/fixtures/graph/webhooks/.
 */
import { createHmac } from 'node:crypto'
import type { Faults } from './faults.ts'
import type { StoredMessage } from './state/demo.ts'

export interface WebhookLogEntry {
  kind: 'message' | 'echo' | 'delivery' | 'read' | 'optin' | 'marketing_echo' | 'template_status'
  page_id: string
  customer_id: string
  mid?: string
  /** What became of it: sent (with the HTTP status), dropped by a fault, or failed to reach the URL. */
  outcome: 'sent' | 'dropped' | 'failed'
  status?: number
  copies: number
  at: string
}

export interface WebhookSenderOptions {
  /** Absolute, or a path on this server (resolved against its own listening address). */
  url: string | undefined
  appSecret: string
  /** This server's own address, for a URL given as a path. */
  ownBase: () => string | undefined
  faults: () => Faults
  rnd?: () => number
}

type Messaging = Record<string, unknown>
/** Where an event goes in its entry: `messaging` events, or `changes` of a page field. */
type Slot = 'messaging' | 'changes'

/** How long a held event waits for a later one to overtake it (reorder fault) before it goes alone. */
const REORDER_HOLD_MS = 1_500
const LOG_MAX = 500

export class WebhookSender {
  readonly log: WebhookLogEntry[] = []
  private readonly timers = new Set<NodeJS.Timeout>()
  private held: { pageId: string; messaging: Messaging; entry: WebhookLogEntry; slot: Slot } | undefined
  private heldTimer: NodeJS.Timeout | undefined
  private readonly rnd: () => number

  constructor(private readonly options: WebhookSenderOptions) {
    this.rnd = options.rnd ?? Math.random
  }

  get enabled(): boolean {
    return Boolean(this.options.url)
  }

  /** A customer wrote to the page. */
  customerMessage(pageId: string, customerId: string, msg: StoredMessage): void {
    this.emit('message', pageId, customerId, {
      sender: { id: customerId },
      recipient: { id: pageId },
      timestamp: msg.createdMs,
      message: { mid: msg.id, ...messageContent(msg) },
    })
  }

  /** The customer opted in to, stopped or resumed the page's marketing messages (`messaging_optins`). */
  optin(pageId: string, customerId: string, timestamp: number, optin: Record<string, unknown>): void {
    this.emit('optin', pageId, customerId, {
      sender: { id: customerId },
      recipient: { id: pageId },
      timestamp,
      optin,
    })
  }

  /**
   * A marketing message went out: the page field `marketing_message_echoes` (an entry's `changes`), which
   * carries the Messenger message id the send's answer does not.
   */
  marketingEcho(pageId: string, customerId: string, value: Record<string, unknown>): void {
    this.emit('marketing_echo', pageId, customerId, { field: 'marketing_message_echoes', value }, 'changes')
  }

  /**
   * A page template's review ended or its status changed: the page field `message_template_status_update`
   * (an entry's `changes`), with the template's id, name, language, category, event and reason.
   */
  templateStatus(pageId: string, value: Record<string, unknown>): void {
    this.emit('template_status', pageId, '', { field: 'message_template_status_update', value }, 'changes')
  }

  /** The page sent a message (through the Send API): its echo, then maybe its receipts. */
  pageSent(pageId: string, customerId: string, msg: StoredMessage, appId: string): void {
    this.emit('echo', pageId, customerId, {
      sender: { id: pageId },
      recipient: { id: customerId },
      timestamp: msg.createdMs,
      message: {
        is_echo: true,
        app_id: Number.isNaN(Number(appId)) ? appId : Number(appId),
        mid: msg.id,
        ...messageContent(msg),
        ...(msg.metadata ? { metadata: msg.metadata } : {}),
      },
    })
    const f = this.options.faults()
    if (this.rnd() >= f.webhook_receipt_share) return
    const delay = () => Math.round(this.rnd() * f.webhook_receipt_delay_ms)
    const delivered = delay()
    this.later(delivered, () => {
      const watermark = Date.now()
      this.emit('delivery', pageId, customerId, {
        sender: { id: customerId },
        recipient: { id: pageId },
        timestamp: watermark,
        delivery: { mids: [msg.id], watermark },
      })
      if (this.rnd() >= f.webhook_read_share) return
      this.later(delay(), () => {
        const read = Date.now()
        this.emit('read', pageId, customerId, {
          sender: { id: customerId },
          recipient: { id: pageId },
          timestamp: read,
          read: { watermark: read },
        })
      })
    })
  }

  /** Forgets pending receipts and held events (sandbox reset, server stop). */
  clear(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    if (this.heldTimer) clearTimeout(this.heldTimer)
    this.held = undefined
  }

  private later(ms: number, run: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t)
      run()
    }, ms)
    t.unref()
    this.timers.add(t)
  }

  private emit(
    kind: WebhookLogEntry['kind'],
    pageId: string,
    customerId: string,
    messaging: Messaging,
    slot: Slot = 'messaging',
  ): void {
    if (!this.enabled) return
    const f = this.options.faults()
    const mid =
      (messaging.message as { mid?: string } | undefined)?.mid ??
      ((messaging.value as { mid?: string } | undefined)?.mid || undefined)
    const entry: WebhookLogEntry = {
      kind,
      page_id: pageId,
      customer_id: customerId,
      ...(mid ? { mid } : {}),
      outcome: 'sent',
      copies: 1,
      at: new Date().toISOString(),
    }
    this.log.push(entry)
    if (this.log.length > LOG_MAX) this.log.shift()
    if (f.webhook_drop > 0 && this.rnd() < f.webhook_drop) {
      entry.outcome = 'dropped'
      return
    }
    if (f.webhook_reorder) {
      const held = this.held
      if (held) {
        // The newer one overtakes the one held back.
        this.held = undefined
        clearTimeout(this.heldTimer)
        this.dispatch(pageId, messaging, entry, slot)
        this.dispatch(held.pageId, held.messaging, held.entry, held.slot)
      } else {
        this.held = { pageId, messaging, entry, slot }
        this.heldTimer = setTimeout(() => {
          const h = this.held
          this.held = undefined
          if (h) this.dispatch(h.pageId, h.messaging, h.entry, h.slot)
        }, REORDER_HOLD_MS)
        this.heldTimer.unref()
      }
      return
    }
    this.dispatch(pageId, messaging, entry, slot)
  }

  private dispatch(
    pageId: string,
    messaging: Messaging,
    entry: WebhookLogEntry,
    slot: Slot = 'messaging',
  ): void {
    const f = this.options.faults()
    const body = JSON.stringify({
      object: 'page',
      entry: [{ id: pageId, time: Date.now(), [slot]: [messaging] }],
    })
    const copies = f.webhook_duplicate > 0 && this.rnd() < f.webhook_duplicate ? 2 : 1
    entry.copies = copies
    const send = () => {
      for (let i = 0; i < copies; i++) void this.post(body, f.webhook_bad_signature, entry)
    }
    if (f.webhook_delay_ms > 0) this.later(f.webhook_delay_ms, send)
    else send()
  }

  private async post(
    body: string,
    badSignature: boolean,
    entry: WebhookLogEntry,
    attempt = 1,
  ): Promise<void> {
    const url = this.target()
    if (!url) return
    const secret = badSignature ? `${this.options.appSecret}-not` : this.options.appSecret
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      })
      entry.status = res.status
      await res.arrayBuffer().catch(() => undefined)
      // Like the network, a server error is retried a few times with a growing pause; a 4xx is not.
      if (res.status >= 500 && attempt < 3)
        this.later(500 * 2 ** attempt, () => void this.post(body, badSignature, entry, attempt + 1))
    } catch {
      entry.outcome = 'failed'
      if (attempt < 3)
        this.later(500 * 2 ** attempt, () => void this.post(body, badSignature, entry, attempt + 1))
    }
  }

  private target(): string | undefined {
    const url = this.options.url
    if (!url) return undefined
    if (/^https?:\/\//.test(url)) return url
    const base = this.options.ownBase()
    return base ? new URL(url, base).toString() : undefined
  }
}

function messageContent(msg: StoredMessage): Record<string, unknown> {
  if (msg.attachment) return { attachments: [{ type: 'image', payload: { url: msg.attachment.url } }] }
  return { text: msg.text }
}
