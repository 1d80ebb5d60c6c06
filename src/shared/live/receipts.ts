/**
 * Delivery and read receipts with the network's watermark semantics: a receipt names a time, and every message
 * the page sent to that customer at or before it is delivered (read). Pure.
 */

export type ReceiptState = 'sent' | 'delivered' | 'read'

export interface Watermarks {
  /** ms since epoch; undefined: nothing delivered yet. */
  delivered?: number
  read?: number
}

/** What a page message created at `createdAt` has reached. Read implies delivered. */
export function receiptState(createdAt: number, marks: Watermarks | undefined): ReceiptState {
  if (!marks) return 'sent'
  if (marks.read !== undefined && createdAt <= marks.read) return 'read'
  const delivered = Math.max(marks.delivered ?? -Infinity, marks.read ?? -Infinity)
  return createdAt <= delivered ? 'delivered' : 'sent'
}

/**
 * Watermarks only move forward: an event that arrives late (reordered, or replayed after a reconnection)
 * never takes a message back from read to delivered. A read watermark also delivers.
 */
export function advanceWatermarks(current: Watermarks | undefined, event: Watermarks): Watermarks {
  const max = (a: number | undefined, b: number | undefined) =>
    a === undefined ? b : b === undefined ? a : Math.max(a, b)
  const read = max(current?.read, event.read)
  const delivered = max(max(current?.delivered, event.delivered), read)
  return { ...(delivered !== undefined ? { delivered } : {}), ...(read !== undefined ? { read } : {}) }
}
