/**
 * The events of the live stream (`GET /api/v2/events`), as the server sends them: `event: <type>` and
 * `data: <json>`. Checked on arrival: an event of an unknown type or shape is ignored, never half-applied.
 */
import { z } from '../../../shared/contracts/zod.ts'

const iso = z.string().refine((s) => Number.isFinite(Date.parse(s)), 'not a time')

const message = z.object({
  pageId: z.string().min(1),
  customerId: z.string().min(1),
  mid: z.string().min(1),
  text: z.string().nullable().optional(),
  attachments: z.array(z.object({ type: z.string(), url: z.string().optional().nullable() })).optional(),
  createdTime: iso,
  fromPage: z.boolean(),
  customerName: z.string().optional().nullable(),
})

const delivery = z.object({
  pageId: z.string().min(1),
  customerId: z.string().min(1),
  watermark: iso,
  mids: z.array(z.string()).optional(),
})

const read = z.object({ pageId: z.string().min(1), customerId: z.string().min(1), watermark: iso })

const bulkReceipts = z.object({
  pageId: z.string().min(1),
  messageId: z.union([z.string().min(1), z.number()]).transform(String),
  delivered: z.number().int().nonnegative(),
  read: z.number().int().nonnegative(),
})

const pageSubscription = z.object({
  pageId: z.string().min(1),
  ok: z.boolean(),
  error: z.string().optional().nullable(),
})

const refetch = z.object({ reason: z.string().optional(), pageId: z.string().optional() })

const schemas = {
  message,
  delivery,
  read,
  bulk_receipts: bulkReceipts,
  page_subscription: pageSubscription,
  refetch,
} as const

export type LiveEventType = keyof typeof schemas

export type LiveEvent = {
  [K in LiveEventType]: { type: K; id?: string; data: z.infer<(typeof schemas)[K]> }
}[LiveEventType]

export type MessageEvent = Extract<LiveEvent, { type: 'message' }>['data']

export const LIVE_EVENT_TYPES = Object.keys(schemas) as LiveEventType[]

/** The typed event, or undefined for an unknown type or a payload of the wrong shape. */
export function parseLiveEvent(type: string, data: string, id?: string): LiveEvent | undefined {
  if (!(type in schemas)) return undefined
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return undefined
  }
  const parsed = schemas[type as LiveEventType].safeParse(json)
  if (!parsed.success) return undefined
  return { type, ...(id ? { id } : {}), data: parsed.data } as LiveEvent
}
