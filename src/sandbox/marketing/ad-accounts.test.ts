import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMarketingSandbox, type MarketingSandbox } from './test-support.ts'

let sb: MarketingSandbox
beforeAll(async () => {
  sb = await startMarketingSandbox()
})
afterAll(async () => {
  await sb.app.close()
})

const FIELDS = 'id,account_id,name,currency,account_status,business_country_code'

describe('GET /me/adaccounts', () => {
  it("lists the demo user's ad accounts with the fields asked for: an active MX one, a DE one, a disabled one", async () => {
    const token = await sb.marketingUserToken()
    const { status, body } = await sb.graph('GET', `/me/adaccounts?fields=${FIELDS}`, token)
    expect(status).toBe(200)
    const data = body.data as Record<string, unknown>[]
    expect(data).toHaveLength(3)
    expect(data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Tienda Sol Ads',
          currency: 'MXN',
          account_status: 1,
          business_country_code: 'MX',
        }),
        expect.objectContaining({
          name: 'Sol Europe',
          currency: 'EUR',
          account_status: 1,
          business_country_code: 'DE',
        }),
        expect.objectContaining({ name: 'Old account', account_status: 2 }),
      ]),
    )
    for (const a of data) expect(a.id).toBe(`act_${a.account_id as string}`)
  })

  it('answers only id and account_id without fields, and pages with cursors', async () => {
    const token = await sb.marketingUserToken()
    const first = await sb.graph('GET', '/me/adaccounts?limit=2', token)
    const data = first.body.data as Record<string, unknown>[]
    expect(data).toHaveLength(2)
    expect(Object.keys(data[0]!).sort()).toEqual(['account_id', 'id'])
    const paging = first.body.paging as { cursors: { after: string }; next?: string }
    expect(paging.next).toBeDefined()
    const second = await sb.graph('GET', `/me/adaccounts?limit=2&after=${paging.cursors.after}`, token)
    const rest = second.body.data as Record<string, unknown>[]
    expect(rest).toHaveLength(1)
    expect((second.body.paging as { next?: string }).next).toBeUndefined()
    expect(new Set([...data, ...rest].map((a) => a.id)).size).toBe(3)
  })

  it('is the same for the same seed (demo data)', async () => {
    const other = await startMarketingSandbox()
    try {
      const a = await sb.graph('GET', `/me/adaccounts?fields=${FIELDS}`, await sb.marketingUserToken())
      const b = await other.graph('GET', `/me/adaccounts?fields=${FIELDS}`, await other.marketingUserToken())
      expect(b.body.data).toEqual(a.body.data)
    } finally {
      await other.app.close()
    }
  })

  it('needs ads_management (200) and a user token', async () => {
    const plain = await sb.userToken()
    expect((await sb.graph('GET', '/me/adaccounts', plain)).body.error).toMatchObject({ code: 200 })
    const page = await sb.marketingPageToken(sb.ids.large)
    expect((await sb.graph('GET', '/me/adaccounts', page)).body.error).toMatchObject({ code: 100 })
    expect((await sb.graph('GET', '/me/adaccounts')).body.error).toMatchObject({ code: 104 })
  })
})

describe('GET /act_{id}', () => {
  it('reads one ad account of the user; another user’s is an unknown object (100/33)', async () => {
    const token = await sb.marketingUserToken()
    const list = await sb.graph('GET', `/me/adaccounts?fields=${FIELDS}`, token)
    const mx = (list.body.data as { id: string; name: string }[]).find((a) => a.name === 'Tienda Sol Ads')!
    const one = await sb.graph('GET', `/${mx.id}?fields=${FIELDS}`, token)
    expect(one.status).toBe(200)
    expect(one.body).toEqual(
      expect.objectContaining({ id: mx.id, currency: 'MXN', business_country_code: 'MX' }),
    )

    const second = await sb.marketingUserToken('second')
    const theirs = await sb.graph('GET', `/${mx.id}?fields=${FIELDS}`, second)
    expect(theirs.status).toBe(400)
    expect(theirs.body.error).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' })
  })

  it('keeps the fault injection: offline cuts it at the socket', async () => {
    const token = await sb.marketingUserToken()
    await sb.post('/faults', { offline: true })
    try {
      await expect(sb.graph('GET', '/me/adaccounts', token)).rejects.toThrow()
    } finally {
      await sb.post('/faults', { offline: false })
    }
  })
})
