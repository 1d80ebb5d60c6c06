/** Cursor paging in the network's shape: `{data, paging:{cursors:{before,after}, next?, previous?}}`. */
import type { FastifyRequest } from 'fastify'
import { absoluteBase } from './context.ts'

export const encodeCursor = (key: string): string => Buffer.from(key).toString('base64url')
export const decodeCursor = (cursor: string): string => Buffer.from(cursor, 'base64url').toString()

export interface PageResult<T> {
  data: T[]
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string }
}

/**
 * The first index whose item passes `test` (items.length when none does). `sorted`: the items that pass
 * are all at the end, so the answer is found by halving instead of a walk from the head.
 */
function firstIndex<T>(items: T[], test: (item: T) => boolean, sorted: boolean): number {
  if (!sorted) {
    const idx = items.findIndex(test)
    return idx < 0 ? items.length : idx
  }
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (test(items[mid]!)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * `items` are in answer order and `keyOf` is strictly decreasing along it; cursors are keys, so a list
 * that gains items at the head keeps every cursor valid. `sorted` vouches for that order (a list of
 * thousands, such as a large page's conversations): a cursor is then found in a few steps.
 */
export function paginate<T>(
  request: FastifyRequest,
  items: T[],
  keyOf: (item: T) => string,
  opts: { limit: number; after?: string; before?: string; linkBase?: string; sorted?: boolean },
): PageResult<T> {
  let start = 0
  let end = items.length
  const sorted = opts.sorted === true
  if (opts.after) {
    const key = decodeCursor(opts.after)
    start = firstIndex(items, (i) => keyOf(i) < key, sorted)
    end = Math.min(items.length, start + opts.limit)
  } else if (opts.before) {
    const key = decodeCursor(opts.before)
    end = firstIndex(items, (i) => keyOf(i) <= key, sorted)
    start = Math.max(0, end - opts.limit)
  } else {
    end = Math.min(items.length, opts.limit)
  }
  const data = items.slice(start, end)
  if (!data.length) return { data: [] }
  const before = encodeCursor(keyOf(data[0]!))
  const after = encodeCursor(keyOf(data[data.length - 1]!))
  const url = new URL(opts.linkBase ?? request.url, absoluteBase(request))
  const link = (set: 'after' | 'before', value: string): string => {
    const u = new URL(url)
    u.searchParams.delete('after')
    u.searchParams.delete('before')
    u.searchParams.set('limit', String(opts.limit))
    u.searchParams.set(set, value)
    return u.toString()
  }
  return {
    data,
    paging: {
      cursors: { before, after },
      ...(end < items.length ? { next: link('after', after) } : {}),
      ...(start > 0 ? { previous: link('before', before) } : {}),
    },
  }
}

export function limitOf(raw: unknown, fallback: number, max = 100): number {
  const n = Number(raw)
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback
}

export function timeKey(ms: number, id: string): string {
  return `${String(ms).padStart(15, '0')}|${id}`
}
