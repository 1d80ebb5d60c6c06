/**
 * The events of the live stream (`GET /api/v2/events`) as the app receives them: `event: <type>` and
 * `data: <json>`, checked with the contract's schemas (src/core/contracts/events.ts) on arrival. An event of
 * an unknown type or shape is ignored, never half-applied.
 */
// First: schemas parse without generated code, which the app's Content-Security-Policy forbids.
import '../../../core/contracts/zod.ts'
import { ownerEventSchemas, refetchEvent } from '../../../core/contracts/events.ts'
import type { z } from '../../../core/contracts/zod.ts'

const schemas = { ...ownerEventSchemas, refetch: refetchEvent } as const

export type LiveEventType = keyof typeof schemas

export type LiveEvent = {
  [K in LiveEventType]: { type: K; id?: string; data: z.infer<(typeof schemas)[K]> }
}[LiveEventType]

export type { MessageEvent } from '../../../core/contracts/events.ts'

export const LIVE_EVENT_TYPES = Object.keys(schemas) as LiveEventType[]

/** The typed event, or undefined for an unknown type or a payload of the wrong shape. */
export function parseLiveEvent(type: string, data: string, id?: string): LiveEvent | undefined {
  if (!Object.hasOwn(schemas, type)) return undefined
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
