/**
 * The `rate_limits` table as a store for @fastify/rate-limit, so every instance on one database counts the
 * same hits. It follows the plugin's own stores (LocalStore, RedisStore): `incr` counts one hit and answers
 * the count and the milliseconds left in the window; `child` gives a route its own counters. The window is
 * read from the database's clock, which every instance shares.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Store } from '../db/store.ts'

/** Expired counters are deleted at most this often per instance. */
export const RATE_LIMIT_CLEANUP_MS = 60_000
/** Exponential backoff stops growing here (about 31 years), far inside what an interval holds. */
const MAX_WINDOW_MS = 1e12

/** The settings the plugin hands a store: its merged options, plus the route for a child. */
interface StoreSettings {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  timeWindow?: unknown
  routeInfo?: { method?: string | string[]; url?: string }
}

type Incr = FastifyRateLimitStore['incr']
type Callback = Parameters<Incr>[1]

// One statement per hit, atomic on both stores: a new key or an expired window starts at 1, anything else
// adds one. The window restarts past `max` with continueExceeding, or doubles per extra hit with backoff.
const HIT = `
INSERT INTO rate_limits AS r (route, key, count, expires_at)
VALUES ($1, $2, 1, now() + make_interval(secs => $3::float8 / 1000))
ON CONFLICT (route, key) DO UPDATE SET
  count = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.count + 1 END,
  expires_at = CASE
    WHEN r.expires_at <= now() THEN now() + make_interval(secs => $3::float8 / 1000)
    WHEN $5::boolean AND r.count + 1 > $4::int THEN now() + make_interval(secs => $3::float8 / 1000)
    WHEN $6::boolean AND r.count + 1 > $4::int THEN now() + make_interval(secs =>
      LEAST($3::float8 * power(2, LEAST(r.count - $4::int, 60)), ${MAX_WINDOW_MS}) / 1000)
    ELSE r.expires_at
  END
RETURNING count, GREATEST(0, ceil(extract(epoch FROM expires_at - now()) * 1000))::float8 AS ttl`

/** A store constructor for `@fastify/rate-limit`'s `store` option, counting in `db`. */
export function databaseRateLimitStore(db: Store): FastifyRateLimitStoreCtor {
  let nextCleanup = 0
  async function cleanup(): Promise<void> {
    if (Date.now() < nextCleanup) return
    nextCleanup = Date.now() + RATE_LIMIT_CLEANUP_MS
    await db.query('DELETE FROM rate_limits WHERE expires_at <= now()')
  }

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly continueExceeding: boolean
    private readonly exponentialBackoff: boolean
    private readonly route: string
    private readonly defaultWindow: number

    constructor(settings: StoreSettings, route = '') {
      this.continueExceeding = settings.continueExceeding === true
      this.exponentialBackoff = settings.exponentialBackoff === true
      this.defaultWindow = typeof settings.timeWindow === 'number' ? settings.timeWindow : 60_000
      this.route = route
    }

    // The plugin calls incr(key, callback, timeWindow, max); its type declares only the first two.
    incr(key: string, callback: Callback, timeWindow = this.defaultWindow, max = Number.MAX_SAFE_INTEGER) {
      const params = [this.route, key, timeWindow, max, this.continueExceeding, this.exponentialBackoff]
      cleanup()
        .then(() => db.query<{ count: number; ttl: number }>(HIT, params))
        .then(
          ([row]) => callback(null, { current: row!.count, ttl: row!.ttl }),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        )
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const settings = routeOptions as unknown as StoreSettings
      const method = settings.routeInfo?.method
      const route = `${this.route}${Array.isArray(method) ? method.join(',') : (method ?? '')}${settings.routeInfo?.url ?? ''}-`
      return new DatabaseRateLimitStore(settings, route)
    }
  }
  return DatabaseRateLimitStore
}
