/**
 * The server's marketing Graph calls: the URLs and parameters sent (the token list always without
 * duplicates), every page of ad accounts, and failures classified as the shared client classifies them.
 */
import { describe, expect, it } from 'vitest'
import { GraphError } from '../../core/graph/errors.ts'
import { createMarketingGraphPort, marketingAvailableIn } from './marketing-port.ts'

function fakeFetch(answers: ((url: URL) => { status: number; body: unknown })[]) {
  const urls: URL[] = []
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    urls.push(url)
    const answer = answers[urls.length - 1]!(url)
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    })
  }
  return { fetch: fetch as typeof globalThis.fetch, urls }
}

const account = (id: string) => ({
  id: `act_${id}`,
  account_id: id,
  name: `A${id}`,
  currency: 'MXN',
  account_status: 1,
  business_country_code: 'MX',
})

describe('marketing Graph calls', () => {
  it('reads every page of the ad accounts', async () => {
    const { fetch, urls } = fakeFetch([
      () => ({
        status: 200,
        body: { data: [account('1')], paging: { cursors: { after: 'c1' }, next: 'x' } },
      }),
      () => ({ status: 200, body: { data: [account('2')], paging: { cursors: { after: 'c2' } } } }),
    ])
    const graph = createMarketingGraphPort({ baseUrl: 'http://g.test/', version: 'v25.0', fetch })
    expect((await graph.adAccounts('user-token')).map((a) => a.id)).toEqual(['act_1', 'act_2'])
    expect(urls[0]!.pathname).toBe('/v25.0/me/adaccounts')
    expect(urls[0]!.searchParams.get('fields')).toBe(
      'id,account_id,name,currency,account_status,business_country_code',
    )
    expect(urls[0]!.searchParams.get('access_token')).toBe('user-token')
    expect(urls[1]!.searchParams.get('after')).toBe('c1')
  })

  it("asks the token list without duplicates, from a cursor, and reads the title of each person's token", async () => {
    const { fetch, urls } = fakeFetch([
      () => ({
        status: 200,
        body: {
          data: [
            {
              notification_messages_token: 't',
              recipient_id: '5',
              topic_title: 'Offers',
              next_eligible_time: 1,
            },
            { notification_messages_token: 'audience', topic_title: 'Offers', custom_audience_ids: ['9'] },
          ],
          paging: {},
        },
      }),
    ])
    const graph = createMarketingGraphPort({ baseUrl: 'http://g.test', version: 'v25.0', fetch })
    const page = await graph.subscriptionTokens('77', 'page-token', { after: 'abc' })
    expect(page.data).toEqual([
      { notification_messages_token: 't', recipient_id: '5', title: 'Offers', next_eligible_time: 1 },
    ])
    expect(urls[0]!.pathname).toBe('/v25.0/77/notification_message_tokens')
    expect(Object.fromEntries(urls[0]!.searchParams)).toMatchObject({
      do_not_return_duplicates: 'true',
      after: 'abc',
      access_token: 'page-token',
    })
  })

  it('rejects with the classified Graph error', async () => {
    const { fetch } = fakeFetch([
      () => ({ status: 400, body: { error: { message: 'Invalid OAuth access token.', code: 190 } } }),
    ])
    const graph = createMarketingGraphPort({ baseUrl: 'http://g.test', version: 'v25.0', fetch })
    const err = await graph.adAccount('act_1', 'x').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GraphError)
    expect(err).toMatchObject({ kind: 'auth', code: 190 })
  })

  it('knows the business countries marketing messages are offered in', () => {
    expect(marketingAvailableIn('MX')).toBe(true)
    expect(marketingAvailableIn('id')).toBe(true)
    expect(marketingAvailableIn('DE')).toBe(false)
    expect(marketingAvailableIn(null)).toBe(false)
  })
})
