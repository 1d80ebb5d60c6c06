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
 * `items` are in answer order and `keyOf` is strictly decreasing along it; cursors are keys, so a list
 * that gains items at the head keeps every cursor valid.
 */
export function paginate<T>(
  request: FastifyRequest,
  items: T[],
  keyOf: (item: T) => string,
  opts: { limit: number; after?: string; before?: string; linkBase?: string },
): PageResult<T> {
  let start = 0
  let end = items.length
  if (opts.after) {
    const key = decodeCursor(opts.after)
    start = items.findIndex((i) => keyOf(i) < key)
    if (start < 0) start = items.length
    end = Math.min(items.length, start + opts.limit)
  } else if (opts.before) {
    const key = decodeCursor(opts.before)
    const idx = items.findIndex((i) => keyOf(i) <= key)
    end = idx < 0 ? items.length : idx
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
