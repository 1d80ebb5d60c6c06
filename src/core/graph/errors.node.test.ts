import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createGraphClient } from './client.ts'
import { classifyGraphError, GraphError, kindOf } from './errors.ts'
import type { GraphErrorKind } from './types.ts'

interface Fixture {
  status: number
  headers?: Record<string, string>
  body: unknown
}

const fixture = (name: string): Fixture =>
  JSON.parse(
    readFileSync(new URL(`../../../tests/fixtures/graph/${name}.json`, import.meta.url), 'utf8'),
  ) as Fixture

const cases: [string, GraphErrorKind, number, number | undefined][] = [
  ['error-190-expired', 'auth', 190, 463],
  ['error-190-invalid', 'auth', 190, 1234567],
  ['error-230-permission', 'auth', 230, undefined],
  ['error-551-blocked', 'recipient_gone', 551, 1545041],
  ['error-200-1545041', 'recipient_gone', 200, 1545041],
  ['error-100-2018001', 'recipient_gone', 100, 2018001],
  ['error-10-2018278', 'outside_window', 10, 2018278],
  ['error-100-invalid-parameter', 'config', 100, undefined],
  ['error-200-permission', 'config', 200, undefined],
  ['error-613-rate-limit', 'throttle', 613, undefined],
  ['error-4-app-limit', 'throttle', 4, undefined],
  ['error-2-transient', 'transient', 2, undefined],
  ['error-1-unknown', 'transient', 1, 99],
  ['error-368-abusive', 'page_blocked', 368, undefined],
  ['error-10-1893063', 'page_blocked', 10, 1893063],
]

describe('classifyGraphError on the network documented error bodies', () => {
  for (const [name, kind, code, subcode] of cases) {
    it(`classifies ${name} as ${kind}`, () => {
      const f = fixture(name)
      const err = classifyGraphError(f.body, f.status, new Headers(f.headers ?? {}))
      expect(err).toBeInstanceOf(GraphError)
      expect(err.kind).toBe(kind)
      expect(err.code).toBe(code)
      expect(err.subcode).toBe(subcode)
      expect(err.httpStatus).toBe(f.status)
      expect(err.message).toBe((f.body as { error: { message: string } }).error.message)
      expect(err.fbtraceId).toBe((f.body as { error: { fbtrace_id: string } }).error.fbtrace_id)
    })
  }

  it('reads the time to regain access from the business use case header of a throttling error', () => {
    const f = fixture('error-613-rate-limit')
    expect(classifyGraphError(f.body, f.status, new Headers(f.headers)).retryAfterMs).toBe(5 * 60_000)
  })

  it('never looks at the message text', () => {
    const body = { error: { message: '(#551) This person isn’t available right now.', code: 100 } }
    expect(classifyGraphError(body, 400).kind).toBe('config')
  })

  it('treats a 5xx answer without a body as transient and a 4xx without a body as configuration', () => {
    expect(classifyGraphError(undefined, 502).kind).toBe('transient')
    expect(classifyGraphError('<html>Bad gateway</html>', 503).kind).toBe('transient')
    expect(classifyGraphError(undefined, 404).kind).toBe('config')
  })

  it('treats code 1 with a 400 status (bad client secret) as configuration', () => {
    expect(kindOf(1, undefined, 400)).toBe('config')
    expect(kindOf(1, undefined, 500)).toBe('transient')
  })

  it('serialises to the shape kept in a rejected result', () => {
    const f = fixture('error-551-blocked')
    expect(JSON.parse(JSON.stringify(classifyGraphError(f.body, f.status)))).toMatchObject({
      kind: 'recipient_gone',
      code: 551,
      error_subcode: 1545041,
      http_status: 400,
    })
  })
})

function stubFetch(status: number, body: unknown, headers: Record<string, string> = {}): typeof fetch {
  return async () =>
    new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    })
}

describe('the Graph client on documented responses', () => {
  const make = (f: typeof fetch) =>
    createGraphClient({ baseUrl: 'https://graph.example/', version: 'v25.0', fetch: f })

  it('resolves a conversations page shaped like the documentation', async () => {
    const page = await make(stubFetch(200, fixture('conversations'))).conversations('112233445566778', 'EAAP')
    expect(page.data[0]?.participants.data[0]?.name).toBe('Maria Santos')
    expect(page.paging?.cursors?.after).toBeTruthy()
  })

  it('resolves a send result with its reusable attachment id', async () => {
    const result = await make(stubFetch(200, fixture('send-result'))).send('1', 'EAAP', {
      recipientId: '1254477777772919',
      messagingType: 'RESPONSE',
      attachment: { url: 'https://example.com/a.png', isReusable: true },
    })
    expect(result.attachment_id).toBe('687799999980546')
  })

  it('rejects an empty result', async () => {
    await expect(make(stubFetch(200, {})).me('EAAS')).rejects.toBeInstanceOf(GraphError)
    await expect(make(stubFetch(200, '')).me('EAAS')).rejects.toBeInstanceOf(GraphError)
  })

  it('rejects an error body even when it comes with status 200', async () => {
    const f = fixture('error-10-2018278')
    await expect(make(stubFetch(200, f.body)).me('EAAS')).rejects.toMatchObject({ kind: 'outside_window' })
  })

  it('rejects a failed fetch as a network error', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed')
    }
    await expect(make(failing).me('EAAS')).rejects.toMatchObject({ kind: 'network', httpStatus: 0 })
  })

  it('sends the query without empty values and a JSON body, and reads the JSON answer', async () => {
    const seen: Request[] = []
    const recording: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init))
      return new Response(JSON.stringify({ recipient_id: '1', message_id: 'm_1' }), { status: 200 })
    }
    await make(recording).send('1', 'EAAP', {
      recipientId: '1254477777772919',
      messagingType: 'RESPONSE',
      text: 'Hola',
    })
    const req = seen[0]!
    expect(req.method).toBe('POST')
    const url = new URL(req.url)
    expect(url.pathname).toBe('/v25.0/1/messages')
    expect(url.searchParams.get('access_token')).toBe('EAAP')
    expect(req.headers.get('content-type')).toBe('application/json')
    expect(await req.json()).toMatchObject({
      recipient: { id: '1254477777772919' },
      message: { text: 'Hola' },
    })
    const page = await make(async (input) => {
      seen.push(new Request(input))
      return new Response(JSON.stringify({ data: [] }), { status: 200 })
    }).conversations('p1', 'EAAP')
    expect(page.data).toEqual([])
    const query = new URL(seen[1]!.url).searchParams
    expect(query.has('after')).toBe(false)
    expect(query.get('limit')).toBe('25')
  })

  it('classifies an answer that is not JSON by its status', async () => {
    await expect(make(stubFetch(502, '<html>Bad gateway</html>')).me('EAAS')).rejects.toMatchObject({
      kind: 'transient',
    })
    await expect(make(stubFetch(200, 'not json')).me('EAAS')).rejects.toBeInstanceOf(GraphError)
  })

  it('puts the page token and the type in picture URLs', () => {
    const url = new URL(make(stubFetch(200, {})).pictureUrl('1254477777772919', 'EAAP', 'normal'))
    expect(url.pathname).toBe('/v25.0/1254477777772919/picture')
    expect(url.searchParams.get('type')).toBe('normal')
    expect(url.searchParams.get('access_token')).toBe('EAAP')
  })
})
