/**
 * Demo owners, pages and conversations, generated from a seed and relative to a start time. Conversation
 * summaries are built eagerly (small records, 200,000 of them in about a second); message histories are
 * generated on first read and memoised, and a listing's newest messages are drawn alone and not kept.
 */
import { CUSTOMER_TEXTS, NAMES_BY_SCRIPT, PAGE_TEXTS } from './names.ts'
import { int, mulberry32, numericId, pick, type Rng, skip, subSeed } from './prng.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The sandbox's people: the demo owner, the owner of another page, and a person who helps the demo owner. */
export const USER_KEYS = ['demo', 'second', 'partner'] as const
export type UserKey = (typeof USER_KEYS)[number]

export interface DemoUser {
  key: UserKey
  id: string
  name: string
  email: string
}

export interface StoredMessage {
  id: string
  createdMs: number
  fromPage: boolean
  text: string
  attachment?: { url: string; id?: string }
  /** The sending app's `message.metadata`, echoed with the message (never shown in the conversation). */
  metadata?: string
}

export interface DemoConversation {
  id: string
  pageId: string
  customer: { id: string; name: string }
  updatedMs: number
  /** The customer's last message: the start of the messaging window. */
  lastCustomerMs: number
  snippet: string
  unread: number
  canReply: boolean
  blocked: boolean
  historyLength: number
  lastFromPage: boolean
  /** Messages added after start (sends, live customer messages), oldest first. */
  extra: StoredMessage[]
  history?: StoredMessage[]
}

export interface DemoPage {
  id: string
  name: string
  category: string
  fanCount: number
  owner: UserKey
  /** The other people who manage the page with the owner (each with a role on it, as on the network). */
  admins: UserKey[]
  hasToken: boolean
}

/** Whether the person has a role on the page: its owner or one of its other people. */
export function managesPage(page: DemoPage, user: UserKey): boolean {
  return page.owner === user || page.admins.includes(user)
}

export interface DemoPageIds {
  large: string
  small: string
  noToken: string
  banned: string
  trialUsed: string
  /** The page of the second owner. */
  second: string
}

/** Pure: the page ids a seed produces, so the stack can tell the API which pages are banned or trial-used. */
export function demoPageIds(seed: number): DemoPageIds {
  const rng = mulberry32(subSeed(seed, 'pages'))
  return {
    large: numericId(rng, 15),
    small: numericId(rng, 15),
    noToken: numericId(rng, 15),
    banned: numericId(rng, 15),
    trialUsed: numericId(rng, 15),
    second: numericId(rng, 15),
  }
}

export function demoUsers(seed: number): Record<UserKey, DemoUser> {
  const rng = mulberry32(subSeed(seed, 'users'))
  return {
    demo: { key: 'demo', id: numericId(rng, 16), name: 'Dana Demo', email: 'dana.demo@example.com' },
    second: { key: 'second', id: numericId(rng, 16), name: 'Sam Second', email: 'sam.second@example.com' },
    partner: {
      key: 'partner',
      id: numericId(rng, 16),
      name: 'Ana Partner',
      email: 'ana.partner@example.com',
    },
  }
}

export function demoPages(seed: number): DemoPage[] {
  const ids = demoPageIds(seed)
  return [
    {
      id: ids.large,
      name: 'Sunrise Market',
      category: 'Shopping & retail',
      fanCount: 48_210,
      owner: 'demo',
      admins: ['partner'],
      hasToken: true,
    },
    {
      id: ids.small,
      name: 'Kanha Bakery',
      category: 'Bakery',
      fanCount: 1_342,
      owner: 'demo',
      admins: ['partner'],
      hasToken: true,
    },
    {
      id: ids.noToken,
      name: 'Archive Page',
      category: 'Community',
      fanCount: 87,
      owner: 'demo',
      admins: [],
      hasToken: false,
    },
    {
      id: ids.banned,
      name: 'Flash Deals 24/7',
      category: 'Shopping & retail',
      fanCount: 905,
      owner: 'demo',
      admins: [],
      hasToken: true,
    },
    {
      id: ids.trialUsed,
      name: 'Rahim Electronics',
      category: 'Electronics store',
      fanCount: 3_420,
      owner: 'demo',
      admins: [],
      hasToken: true,
    },
    {
      id: ids.second,
      name: 'Lahore Textiles',
      category: 'Clothing store',
      fanCount: 12_030,
      owner: 'second',
      admins: [],
      hasToken: true,
    },
  ]
}

interface Shape {
  count: number
  /** Customers whose last message is inside 24 h, then 1–7 days; the rest are older. */
  inDay: number
  inWeek: number
  cannotReplyRate: number
  blockedRate: number
  maxHistory: number
}

export const LARGE_SHAPE: Shape = {
  count: 1_280,
  inDay: 310,
  inWeek: 240,
  cannotReplyRate: 0.03,
  blockedRate: 0.02,
  maxHistory: 60,
}
/**
 * The large page's shape with another number of conversations (SANDBOX_LARGE_PAGE_CONVERSATIONS): the same
 * shares inside 24 hours and at 1–7 days, the same rates. The default is the whole 1,280.
 */
export function largeShape(conversations: number = LARGE_SHAPE.count): Shape {
  if (conversations === LARGE_SHAPE.count) return LARGE_SHAPE
  const share = conversations / LARGE_SHAPE.count
  return {
    ...LARGE_SHAPE,
    count: conversations,
    inDay: Math.round(LARGE_SHAPE.inDay * share),
    inWeek: Math.round(LARGE_SHAPE.inWeek * share),
  }
}

const SMALL_SHAPE: Shape = {
  count: 30,
  inDay: 26,
  inWeek: 3,
  cannotReplyRate: 0,
  blockedRate: 0,
  maxHistory: 25,
}
const OTHER_SHAPE: Shape = {
  count: 12,
  inDay: 6,
  inWeek: 3,
  cannotReplyRate: 0.1,
  blockedRate: 0.1,
  maxHistory: 20,
}

const OTHER_SCRIPTS = NAMES_BY_SCRIPT.slice(1)

function customerName(rng: Rng): string {
  // Latin for about half the customers, the other scripts share the rest.
  const group = rng() < 0.5 ? NAMES_BY_SCRIPT[0] : pick(rng, OTHER_SCRIPTS)
  return `${pick(rng, group.first)} ${pick(rng, group.last)}`
}

/** The draws of customerName without the name: the script, then first and last name. */
function skipCustomerName(rng: Rng): void {
  skip(rng, rng() < 0.5 ? 2 : 3)
}

function shapeOf(seed: number, page: DemoPage, largeConversations: number): Shape {
  const ids = demoPageIds(seed)
  return page.id === ids.large
    ? largeShape(largeConversations)
    : page.id === ids.small
      ? SMALL_SHAPE
      : OTHER_SHAPE
}

/** The page's stream of draws: its conversations are drawn from it one after another, in seed order. */
function conversationStream(seed: number, page: DemoPage): Rng {
  return mulberry32(subSeed(seed, `conversations:${page.id}`))
}

interface Times {
  lastCustomerMs: number
  updatedMs: number
  lastFromPage: boolean
  historyLength: number
}

/** The first draws of the i-th conversation: when the customer last wrote, who wrote last, how long it is. */
function drawTimes(rng: Rng, shape: Shape, i: number, startMs: number): Times {
  const age =
    i < shape.inDay
      ? int(rng, 60_000, 23 * HOUR)
      : i < shape.inDay + shape.inWeek
        ? int(rng, DAY + HOUR, 7 * DAY - HOUR)
        : int(rng, 8 * DAY, 400 * DAY)
  const lastCustomerMs = startMs - age
  const lastFromPage = rng() < 0.3
  const replyDelay = int(rng, 60_000, 2 * HOUR)
  const updatedMs = lastFromPage ? Math.min(startMs - 1_000, lastCustomerMs + replyDelay) : lastCustomerMs
  const historyLength = Math.max(
    lastFromPage ? 2 : 1,
    Math.min(shape.maxHistory, Math.floor(rng() ** 2 * shape.maxHistory) + 1),
  )
  return { lastCustomerMs, updatedMs, lastFromPage, historyLength }
}

/** The i-th conversation of the page, drawn in full. */
function drawConversation(
  rng: Rng,
  shape: Shape,
  i: number,
  page: DemoPage,
  startMs: number,
): DemoConversation {
  const t = drawTimes(rng, shape, i, startMs)
  return {
    id: `t_${numericId(rng, 15)}`,
    pageId: page.id,
    customer: { id: numericId(rng, 16), name: customerName(rng) },
    updatedMs: t.updatedMs,
    lastCustomerMs: t.lastCustomerMs,
    snippet: t.lastFromPage ? pick(rng, PAGE_TEXTS) : pick(rng, CUSTOMER_TEXTS),
    unread: !t.lastFromPage && i < shape.inDay ? int(rng, 1, 3) : 0,
    canReply: rng() >= shape.cannotReplyRate,
    blocked: rng() < shape.blockedRate,
    historyLength: t.historyLength,
    lastFromPage: t.lastFromPage,
    extra: [],
  }
}

/**
 * Passes over the i-th conversation with the same draws as drawConversation, building none of its strings:
 * whether its customer can take a message (can reply, not blocked).
 */
function skipConversation(rng: Rng, shape: Shape, i: number, startMs: number): boolean {
  const t = drawTimes(rng, shape, i, startMs)
  // The conversation's and the customer's ids (a draw per digit), the name, the snippet, then unread.
  skip(rng, 15 + 16)
  skipCustomerName(rng)
  skip(rng, !t.lastFromPage && i < shape.inDay ? 2 : 1)
  const canReply = rng() >= shape.cannotReplyRate
  const blocked = rng() < shape.blockedRate
  return canReply && !blocked
}

/** The page's seeded conversations in seed order (not yet newest first). */
export function demoConversations(
  seed: number,
  page: DemoPage,
  startMs: number,
  largeConversations: number = LARGE_SHAPE.count,
): DemoConversation[] {
  const shape = shapeOf(seed, page, largeConversations)
  const rng = conversationStream(seed, page)
  const out: DemoConversation[] = []
  for (let i = 0; i < shape.count; i++) out.push(drawConversation(rng, shape, i, page, startMs))
  return out
}

/**
 * Whether each of the page's seeded customers can take a message (1: can reply and not blocked), in seed
 * order: what demoConversations gives, at a fraction of its cost on a large page.
 */
export function demoReachable(
  seed: number,
  page: DemoPage,
  startMs: number,
  largeConversations: number = LARGE_SHAPE.count,
): Uint8Array {
  const shape = shapeOf(seed, page, largeConversations)
  const rng = conversationStream(seed, page)
  const out = new Uint8Array(shape.count)
  for (let i = 0; i < shape.count; i++) out[i] = skipConversation(rng, shape, i, startMs) ? 1 : 0
  return out
}

/** The page's seeded conversations at the given positions (seed order), as demoConversations gives them. */
export function demoConversationsAt(
  seed: number,
  page: DemoPage,
  startMs: number,
  positions: readonly number[],
  largeConversations: number = LARGE_SHAPE.count,
): Map<number, DemoConversation> {
  const shape = shapeOf(seed, page, largeConversations)
  const rng = conversationStream(seed, page)
  const wanted = new Set(positions)
  const last = Math.min(shape.count, positions.reduce((max, p) => Math.max(max, p), -1) + 1)
  const out = new Map<number, DemoConversation>()
  for (let i = 0; i < last; i++) {
    if (wanted.has(i)) out.set(i, drawConversation(rng, shape, i, page, startMs))
    else skipConversation(rng, shape, i, startMs)
  }
  return out
}
