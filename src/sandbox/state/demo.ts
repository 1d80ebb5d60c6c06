/**
 * Demo owners, pages and conversations, generated from a seed and relative to a start time. Conversation
 * summaries are built eagerly (small records); message histories are generated on first read and memoised.
 */
import { CUSTOMER_TEXTS, NAMES_BY_SCRIPT, PAGE_TEXTS } from './names.ts'
import { int, mulberry32, numericId, pick, type Rng, subSeed } from './prng.ts'

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

function customerName(rng: Rng): string {
  // Latin for about half the customers, the other scripts share the rest.
  const group = rng() < 0.5 ? NAMES_BY_SCRIPT[0] : pick(rng, NAMES_BY_SCRIPT.slice(1))
  return `${pick(rng, group.first)} ${pick(rng, group.last)}`
}

export function demoConversations(
  seed: number,
  page: DemoPage,
  startMs: number,
  largeConversations: number = LARGE_SHAPE.count,
): DemoConversation[] {
  const ids = demoPageIds(seed)
  const shape =
    page.id === ids.large ? largeShape(largeConversations) : page.id === ids.small ? SMALL_SHAPE : OTHER_SHAPE
  const rng = mulberry32(subSeed(seed, `conversations:${page.id}`))
  const out: DemoConversation[] = []
  for (let i = 0; i < shape.count; i++) {
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
    out.push({
      id: `t_${numericId(rng, 15)}`,
      pageId: page.id,
      customer: { id: numericId(rng, 16), name: customerName(rng) },
      updatedMs,
      lastCustomerMs,
      snippet: lastFromPage ? pick(rng, PAGE_TEXTS) : pick(rng, CUSTOMER_TEXTS),
      unread: !lastFromPage && i < shape.inDay ? int(rng, 1, 3) : 0,
      canReply: rng() >= shape.cannotReplyRate,
      blocked: rng() < shape.blockedRate,
      historyLength,
      lastFromPage,
      extra: [],
    })
  }
  return out
}
