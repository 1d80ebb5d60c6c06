/** The sandbox's mutable world: pages, conversations (newest first), the sent log and reusable attachments. */
import {
  demoConversations,
  demoPages,
  demoUsers,
  managesPage,
  type DemoConversation,
  type DemoPage,
  type DemoUser,
  type StoredMessage,
  type UserKey,
} from './demo.ts'
import { generateHistory } from './history.ts'
import { LabelBook } from './labels.ts'
import { numericId } from './prng.ts'
import { CUSTOMER_TEXTS } from './names.ts'

export interface SentEntry {
  page_id: string
  recipient_id: string
  messaging_type: string
  tag: string | null
  text: string | null
  attachment: { url: string } | { attachment_id: string } | null
  message_id: string
  at: string
}

/** A sender action the Send API accepted (`mark_seen`, typing indicators). */
export interface SenderActionEntry {
  page_id: string
  recipient_id: string
  sender_action: string
  at: string
}

export class SandboxStore {
  users!: Record<UserKey, DemoUser>
  pages!: Map<string, DemoPage>
  private conversations!: Map<string, DemoConversation>
  private byPage!: Map<string, DemoConversation[]>
  /** Each page's conversations by customer id, built on a page's first look-up by customer. */
  private byCustomer = new Map<string, Map<string, DemoConversation>>()
  private dirty = new Set<string>()
  /** The seeded snippet of conversations that took a message before their history was first read. */
  private seededSnippets = new Map<string, string>()
  sent: SentEntry[] = []
  senderActions: SenderActionEntry[] = []
  attachments = new Map<string, string>()
  /** Pages subscribed to the app's webhooks, with the fields asked for (`POST /{page-id}/subscribed_apps`). */
  subscribedFields = new Map<string, string[]>()
  /** The pages' custom labels and the people they are on. */
  labels!: LabelBook
  private counter = 0

  constructor(
    readonly seed: number,
    public startMs: number,
    /** How many conversations the large demo page has (1,280 unless asked for fewer or more). */
    readonly largeConversations?: number,
  ) {
    this.load()
  }

  load(): void {
    this.users = demoUsers(this.seed)
    this.pages = new Map(demoPages(this.seed).map((p) => [p.id, p]))
    this.conversations = new Map()
    this.byPage = new Map()
    this.byCustomer = new Map()
    this.seededSnippets = new Map()
    this.labels = new LabelBook(this.seed)
    for (const page of this.pages.values()) {
      const convs = demoConversations(this.seed, page, this.startMs, this.largeConversations)
      for (const c of convs) this.conversations.set(c.id, c)
      this.byPage.set(page.id, convs)
      this.labels.seedPage(page, convs, this.startMs)
      this.dirty.add(page.id)
    }
    this.sent = []
    this.senderActions = []
    this.attachments = new Map()
    this.subscribedFields = new Map()
  }

  userById(id: string): DemoUser | undefined {
    return Object.values(this.users).find((u) => u.id === id)
  }

  /** The pages the person manages, as their own or with their owner. */
  pagesOf(user: UserKey): DemoPage[] {
    return [...this.pages.values()].filter((p) => managesPage(p, user))
  }

  /** Newest first by updated time, ties broken by id, so cursors stay stable. */
  conversationsOf(pageId: string): DemoConversation[] {
    const list = this.byPage.get(pageId) ?? []
    if (this.dirty.delete(pageId)) {
      list.sort((a, b) => b.updatedMs - a.updatedMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    }
    return list
  }

  /** Unread messages over all of a page's conversations (the Page node's unread_message_count). */
  unreadOf(pageId: string): number {
    return (this.byPage.get(pageId) ?? []).reduce((sum, c) => sum + c.unread, 0)
  }

  conversation(id: string): DemoConversation | undefined {
    return this.conversations.get(id)
  }

  conversationWith(pageId: string, customerId: string): DemoConversation | undefined {
    return this.customersOf(pageId)?.get(customerId)
  }

  /** The page's conversations by customer id (the first one wins if two customers share an id). */
  private customersOf(pageId: string): Map<string, DemoConversation> | undefined {
    let index = this.byCustomer.get(pageId)
    if (index) return index
    const convs = this.byPage.get(pageId)
    if (!convs) return undefined
    index = new Map()
    for (const c of convs) if (!index.has(c.customer.id)) index.set(c.customer.id, c)
    this.byCustomer.set(pageId, index)
    return index
  }

  /** Oldest first: the seeded history (generated once) then everything added since start. */
  messagesOf(conv: DemoConversation): StoredMessage[] {
    conv.history ??= generateHistory(this.seed, conv, conv.historyLength, this.seededSnippet(conv))
    return conv.extra.length ? [...conv.history, ...conv.extra] : conv.history
  }

  /**
   * The end of messagesOf: its newest `limit` messages, oldest first. A history not read yet is not kept, and
   * only its newest messages are drawn (a listing of thousands of conversations with their last messages).
   */
  newestMessagesOf(conv: DemoConversation, limit: number): StoredMessage[] {
    if (conv.history) {
      const all = this.messagesOf(conv)
      return all.slice(Math.max(0, all.length - limit))
    }
    const extra = conv.extra.slice(Math.max(0, conv.extra.length - limit))
    const seeded = generateHistory(this.seed, conv, limit - extra.length, this.seededSnippet(conv))
    return extra.length ? [...seeded, ...extra] : seeded
  }

  private seededSnippet(conv: DemoConversation): string {
    return this.seededSnippets.get(conv.id) ?? conv.snippet
  }

  nextId(prefix: string): string {
    this.counter++
    return `${prefix}${Date.now().toString(36)}${this.counter.toString(36).padStart(4, '0')}`
  }

  /** Numeric like the network's attachment ids. */
  nextAttachmentId(): string {
    this.counter++
    return String(Date.now() * 1000 + (this.counter % 1000))
  }

  addMessage(conv: DemoConversation, msg: Omit<StoredMessage, 'id'>): StoredMessage {
    // The seeded history ends with the seeded snippet, however the snippet changes before it is first read.
    if (!conv.history && !this.seededSnippets.has(conv.id)) this.seededSnippets.set(conv.id, conv.snippet)
    const stored = { ...msg, id: this.nextId('m_') }
    conv.extra.push(stored)
    conv.updatedMs = Math.max(conv.updatedMs, msg.createdMs)
    conv.snippet = msg.text || (msg.attachment ? '' : conv.snippet)
    if (msg.fromPage) {
      conv.unread = 0
    } else {
      conv.lastCustomerMs = msg.createdMs
      conv.unread += 1
    }
    this.dirty.add(conv.pageId)
    return stored
  }

  /**
   * A customer who never wrote to the page before: a new conversation with no history yet (its first
   * message is added by the caller), at the top of the page's list once it has one.
   */
  newConversation(pageId: string, name: string, customerId?: string): DemoConversation | undefined {
    const convs = this.byPage.get(pageId)
    if (!convs) return undefined
    const conv: DemoConversation = {
      id: `t_${numericId(Math.random, 15)}`,
      pageId,
      customer: { id: customerId ?? numericId(Math.random, 16), name },
      updatedMs: 0,
      lastCustomerMs: 0,
      snippet: '',
      unread: 0,
      canReply: true,
      blocked: false,
      historyLength: 0,
      lastFromPage: false,
      extra: [],
      history: [],
    }
    convs.push(conv)
    this.conversations.set(conv.id, conv)
    const customers = this.byCustomer.get(pageId)
    if (customers && !customers.has(conv.customer.id)) customers.set(conv.customer.id, conv)
    this.dirty.add(pageId)
    return conv
  }

  /** A new customer message on a random conversation of the given pages (the "live" demo). */
  liveMessage(pageIds: string[], rnd: () => number = Math.random): DemoConversation | undefined {
    const pageId = pageIds[Math.floor(rnd() * pageIds.length)]
    const convs = pageId ? this.byPage.get(pageId) : undefined
    if (!convs?.length) return undefined
    const conv = convs[Math.floor(rnd() * Math.min(convs.length, 200))]!
    if (conv.blocked) return undefined
    const text = CUSTOMER_TEXTS[Math.floor(rnd() * CUSTOMER_TEXTS.length)]!
    this.addMessage(conv, { createdMs: Date.now(), fromPage: false, text })
    return conv
  }
}
