/**
 * The subscriber list and the opt-in request record: events apply at their own time (an older one never
 * overrides a newer one), an opt-out stops at once, expired tokens are not active, the token list never
 * brings back a person who opted out after the token was made, tokens are sealed at rest, and the weekly
 * limit per title.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { tokenBox } from '../bulk/token-box.ts'
import type { Store } from '../db/store.ts'
import { onEveryStore, openTestStore } from '../testing/harness.ts'
import {
  type SubscriberEvent,
  activeSubscriberPsids,
  activeSubscriberToken,
  applySubscriberEvent,
  applyTokenList,
  checkOptInRequests,
  networkTime,
  recordOptInRequests,
  subscriberCounts,
} from './marketing.ts'

const box = tokenBox(randomBytes(32))
const T0 = Date.parse('2026-11-01T00:00:00Z')
const NOW = new Date('2026-11-20T00:00:00Z')
const DAY = 86_400_000

onEveryStore('marketing subscribers', (kind) => {
  let store: Store
  let close: () => Promise<void>
  let n = 0
  beforeAll(async () => {
    ;({ store, close } = await openTestStore(kind))
  })
  afterAll(() => close())

  const page = () => `90${++n}`
  const ev = (pageId: string, e: Partial<SubscriberEvent>): SubscriberEvent => ({
    pageId,
    psid: '111',
    at: T0,
    kind: 'optin',
    token: 'tok-1',
    source: 'webhook',
    ...e,
  })
  const apply = (e: SubscriberEvent) => store.transaction((tx) => applySubscriberEvent(tx, box, e, NOW))
  const token = (pageId: string, psid = '111') => activeSubscriberToken(store, box, pageId, psid, NOW)

  it('makes a first opt-in active with its token, sealed at rest', async () => {
    const p = page()
    expect(await apply(ev(p, { title: 'Offers' }))).toEqual({ applied: true, activated: true })
    expect(await token(p)).toBe('tok-1')
    const [row] = await store.query<{ token: Uint8Array; title: string }>(
      'SELECT token, title FROM marketing_subscribers WHERE page_id = $1',
      [p],
    )
    expect(Buffer.from(row!.token).toString('utf8')).not.toContain('tok-1')
    expect(row!.title).toBe('Offers')
    expect(await subscriberCounts(store, p, NOW)).toEqual({ active: 1, stopped: 0 })
  })

  it('stops at once on an opt-out and resumes with the new token', async () => {
    const p = page()
    await apply(ev(p, {}))
    expect(await apply(ev(p, { kind: 'stop', at: T0 + 1000, token: undefined }))).toMatchObject({
      applied: true,
    })
    expect(await token(p)).toBeNull()
    expect(await subscriberCounts(store, p, NOW)).toEqual({ active: 0, stopped: 1 })
    expect(await apply(ev(p, { kind: 'resume', at: T0 + 2000, token: 'tok-2' }))).toEqual({
      applied: true,
      activated: true,
    })
    expect(await token(p)).toBe('tok-2')
  })

  it('never lets an older or redelivered event override a newer one', async () => {
    const p = page()
    await apply(ev(p, { at: T0 }))
    await apply(ev(p, { kind: 'stop', at: T0 + 5000 }))
    // The first opt-in delivered again, and a resume older than the stop, arrive late.
    expect((await apply(ev(p, { at: T0 }))).applied).toBe(false)
    expect((await apply(ev(p, { kind: 'resume', at: T0 + 4000, token: 'old' }))).applied).toBe(false)
    expect(await token(p)).toBeNull()
    // The stop itself again changes nothing.
    expect((await apply(ev(p, { kind: 'stop', at: T0 + 5000 }))).applied).toBe(false)
    // An opt-out at the same moment as an opt-in wins.
    const q = page()
    await apply(ev(q, { at: T0 }))
    expect((await apply(ev(q, { kind: 'stop', at: T0 }))).applied).toBe(true)
    expect(await token(q)).toBeNull()
  })

  it('records an opt-out of a person not known yet, so an older opt-in cannot add them', async () => {
    const p = page()
    await apply(ev(p, { kind: 'stop', at: T0 + 10, token: undefined }))
    expect((await apply(ev(p, { at: T0 }))).applied).toBe(false)
    expect(await subscriberCounts(store, p, NOW)).toEqual({ active: 0, stopped: 1 })
  })

  it('does not count or answer a token past its expiry', async () => {
    const p = page()
    await apply(ev(p, { psid: '1', expiresAt: NOW.getTime() + DAY }))
    await apply(ev(p, { psid: '2', expiresAt: NOW.getTime() - DAY }))
    expect(await activeSubscriberPsids(store, p, NOW)).toEqual(['1'])
    expect(await token(p, '2')).toBeNull()
    // Once the clock passes the first one's expiry, it is no longer active either.
    const later = new Date(NOW.getTime() + 2 * DAY)
    expect(await activeSubscriberToken(store, box, p, '1', later)).toBeNull()
    expect(await subscriberCounts(store, p, later)).toEqual({ active: 0, stopped: 0 })
    const [row] = await store.query<{ status: string }>(
      `SELECT status FROM marketing_subscribers WHERE page_id = $1 AND psid = '2'`,
      [p],
    )
    expect(row!.status).toBe('expired')
  })

  it('applies the token list without duplicates and never resurrects a later opt-out', async () => {
    const p = page()
    // 222 opted out after the token the list still shows was made; 333 is new; 444 has two tokens.
    await apply(ev(p, { psid: '222', at: T0 }))
    await apply(ev(p, { psid: '222', kind: 'stop', at: T0 + DAY }))
    const added = await store.transaction((tx) =>
      applyTokenList(
        tx,
        box,
        p,
        [
          { notification_messages_token: 'a', recipient_id: '222', creation_timestamp: (T0 + 1000) / 1000 },
          { notification_messages_token: 'b', recipient_id: '333', creation_timestamp: T0 / 1000 },
          { notification_messages_token: 'c1', recipient_id: '444', creation_timestamp: T0 / 1000 },
          { notification_messages_token: 'c2', recipient_id: '444', creation_timestamp: T0 / 1000 + 60 },
          { notification_messages_token: 'd', recipient_id: 'not-a-psid' },
        ],
        NOW,
      ),
    )
    expect(added).toBe(2)
    expect(await activeSubscriberPsids(store, p, NOW)).toEqual(['333', '444'])
    expect(await token(p, '444')).toBe('c2')
    expect(await token(p, '222')).toBeNull()
    const [{ n: rows }] = (await store.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketing_subscribers WHERE page_id = $1',
      [p],
    )) as [{ n: number }]
    expect(rows).toBe(3)
    // The same list again adds nobody.
    expect(
      await store.transaction((tx) =>
        applyTokenList(
          tx,
          box,
          p,
          [{ notification_messages_token: 'b', recipient_id: '333', creation_timestamp: T0 / 1000 }],
          NOW,
        ),
      ),
    ).toBe(0)
    // A token opted into after the opt-out (a newer creation) does bring the person back.
    await store.transaction((tx) =>
      applyTokenList(
        tx,
        box,
        p,
        [
          {
            notification_messages_token: 'e',
            recipient_id: '222',
            creation_timestamp: (T0 + 2 * DAY) / 1000,
          },
        ],
        NOW,
      ),
    )
    expect(await token(p, '222')).toBe('e')
  })

  it('reads network times in seconds or milliseconds, as numbers or strings', () => {
    expect(networkTime('1715552000000')).toBe(1_715_552_000_000)
    expect(networkTime(1_715_552_000)).toBe(1_715_552_000_000)
    expect(networkTime(undefined)).toBeUndefined()
    expect(networkTime('soon')).toBeUndefined()
  })

  it('refuses an opt-in request with the same title within 7 days, and to subscribers', async () => {
    const p = page()
    await apply(ev(p, { psid: '10' }))
    const sent = new Date(NOW.getTime() - 2 * DAY)
    await recordOptInRequests(store, p, ['11', '11', '12'], 'Offers', sent)
    await recordOptInRequests(store, p, ['12'], 'Offers', new Date(NOW.getTime() - 8 * DAY))
    const check = await checkOptInRequests(store, p, ['10', '11', '12', '13', '13'], 'Offers', NOW)
    expect(check.allowed).toEqual(['13'])
    expect(check.refused).toEqual([
      { psid: '10', reason: 'subscribed' },
      {
        psid: '11',
        reason: 'asked_this_week',
        next_at: new Date(sent.getTime() + 7 * DAY).toISOString(),
      },
      {
        psid: '12',
        reason: 'asked_this_week',
        next_at: new Date(sent.getTime() + 7 * DAY).toISOString(),
      },
    ])
    // Another title, or the same a week later, may go.
    expect((await checkOptInRequests(store, p, ['11'], 'News', NOW)).allowed).toEqual(['11'])
    const weekLater = new Date(sent.getTime() + 7 * DAY)
    expect((await checkOptInRequests(store, p, ['11'], 'Offers', weekLater)).allowed).toEqual(['11'])
  })
})
