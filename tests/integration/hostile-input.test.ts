/**
 * Every route of the stack (the API, the webhooks, the sandbox, the static files), as Fastify registers it,
 * answers hostile input with a 4xx and never a 5xx: bodies and fields nested 3,000 deep, lone surrogates,
 * every C0 control character, NUL, 1e309, -0, huge integers as numbers and as strings, a string near the
 * body limit, and every wrong type, in the body, the query string and the path parameters. The demo owner is
 * signed in with a page, so the routes behind the sign-in are really reached; a route added later is fuzzed
 * without being named here.
 *
 * Each route's fields are learnt from its own 422 answer to an empty body (and completed until it accepts
 * one, where it can), then each field in turn gets every hostile value while the others stay valid.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HTTPMethods, RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import * as apiContracts from '../../src/core/contracts/api.ts'
import * as marketingContracts from '../../src/core/contracts/marketing.ts'
import * as pushContracts from '../../src/core/contracts/push.ts'
import * as savedReplyContracts from '../../src/core/contracts/saved-replies.ts'
import { DEMO_SEED, type SandboxStack, signInDemoWithPage, startSandboxStack } from './support/stack.ts'

interface Route {
  method: string
  url: string
}

interface Answer {
  status: number
  body: string
}

/** A value sent as it is written here: JSON cannot hold these otherwise (1e309, -0, a 30-digit integer). */
class Raw {
  constructor(readonly text: string) {}
}

const DEPTH = 3_000
/** Written out, not built: even JSON.stringify with a replacer cannot walk 3,000 levels. */
const deepArray = () => new Raw(`${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}`)
const deepObject = () => new Raw(`${'{"a":'.repeat(DEPTH)}"x"${'}'.repeat(DEPTH)}`)
const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i))
/** A string that keeps its body under the 1 MB limit. */
const NEAR_LIMIT = 'x'.repeat(900_000)

/** What each field in turn is given. */
const FIELD_VALUES: unknown[] = [
  null,
  [],
  {},
  true,
  false,
  0,
  -1,
  1.5,
  '',
  new Raw('-0'),
  new Raw('1e309'),
  new Raw('-1e309'),
  new Raw('123456789012345678901234567890'),
  '123456789012345678901234567890',
  '9223372036854775808',
  '-0',
  '1e309',
  'NaN',
  '\ud800',
  '\udc00',
  'a\udc00\ud800b',
  '\u0000',
  C0.join(''),
  deepArray(),
  deepObject(),
  ['\ud800'],
  { a: '\u0000' },
]
/**
 * Given to the first field only, as they behave alike everywhere else: each C0 character on its own, and a
 * string that keeps its body just under the 1 MB limit.
 */
const FIRST_FIELD_VALUES = [...C0.map((c) => `a${c}b`), NEAR_LIMIT]

/** Whole bodies, each sent as written with its content type. */
const WHOLE_BODIES: [string, string][] = [
  ['application/json', deepArray().text],
  ['application/json', deepObject().text],
  ['application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['application/json', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
  ['application/json', 'null'],
  ['application/json', 'true'],
  ['application/json', '1e309'],
  ['application/json', '-0'],
  ['application/json', '123456789012345678901234567890'],
  ['application/json', '"\\ud800"'],
  ['application/json', '"\\u0000"'],
  ['application/json', '[]'],
  ['application/json', '{"a":'],
  ['application/json', '{"__proto__":{"x":1}}'],
  ['application/json', '{"constructor":{"prototype":{"x":1}}}'],
  ['application/json', JSON.stringify(NEAR_LIMIT)],
  ['application/json', 'x'.repeat(1_100_000)],
  ['text/plain', 'a\u0000b'],
  ['application/x-www-form-urlencoded', 'a=%00&b=%ED%A0%80&access_token=%00'],
  ['application/octet-stream', '\u0000\u0001\u0002'],
  [
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n--x--',
  ],
]

/** Query and path values (already percent-encoded). */
const URL_VALUES = [
  '%00',
  'a%01b',
  '%1F',
  '%ED%A0%80',
  '%ED%B0%80',
  '%F0%9F',
  '%FF',
  '',
  '-0',
  '1e309',
  '-1',
  '1.5',
  'NaN',
  'null',
  '123456789012345678901234567890',
  '9223372036854775808',
  '%5B%5D',
  '%7B%7D',
  'x'.repeat(20_000),
]

/** Values tried, in order, to complete a field a route asks for (the route's own expected value first). */
const CANDIDATES = (pageId: string): unknown[] => [
  pageId,
  'x',
  1,
  true,
  ['x'],
  {},
  'https://example.com/a.png',
  new Date(Date.now() + 86_400_000).toISOString(),
  'OK',
  [pageId],
]

/**
 * Every field name the shared contracts know, at any depth: offered to each route at once, so its optional
 * fields are found too (a strict schema names the unknown ones "not allowed", a loose one passes them).
 */
function contractFields(): string[] {
  const names = new Set<string>()
  const seen = new Set<unknown>()
  const walk = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return
    seen.add(schema)
    const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def
    if (!def) return
    if (def.type === 'object') {
      for (const [key, inner] of Object.entries(def.shape as Record<string, unknown>)) {
        names.add(key)
        walk(inner)
      }
    }
    for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'schema'] as const)
      walk(def[key])
    if (Array.isArray(def.options)) def.options.forEach(walk)
  }
  for (const module of [apiContracts, marketingContracts, pushContracts, savedReplyContracts])
    Object.values(module).forEach(walk)
  return [...names]
}
const FIELDS = contractFields()

const isRaw = (v: unknown): v is Raw => v instanceof Raw

/** JSON with the Raw values written as they are. */
function toJson(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (isRaw(v)) {
      raws.push(v.text)
      return `\u0001raw${raws.length - 1}\u0001`
    }
    return v
  })
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!)
}

/** Sets a dotted path (`error_data.error_message`) in a copy of `body`. */
function withField(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.')
  const out: Record<string, unknown> = { ...body }
  let at = out
  for (const [i, key] of keys.entries()) {
    if (i === keys.length - 1) at[key] = value
    else {
      const next = at[key]
      const copy = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as object) } : {}
      at[key] = copy
      at = copy as Record<string, unknown>
    }
  }
  return out
}

const withBody = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method)

describe('hostile input on every route', () => {
  let stack: SandboxStack
  const routes: Route[] = []
  const ids = demoPageIds(DEMO_SEED)
  const pageId = ids.small
  let session = ''
  let pageToken = ''
  let tried = 0
  /** Routes behind the sign-in that answered 2xx to a learnt body: the fuzzing got past the sign-in. */
  const reached = new Set<string>()
  const failures: string[] = []

  // A built app of one page, so the static routes answer as in production rather than "not built".
  const staticDir = mkdtempSync(join(tmpdir(), 'pagecast-hostile-'))
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Pagecast</title>')

  beforeAll(async () => {
    stack = await startSandboxStack({
      env: { STATIC_DIR: staticDir },
      onRoute: (route: RouteOptions) => {
        const methods = ([] as HTTPMethods[]).concat(route.method)
        for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url })
      },
    })
    await signIn()
  })
  afterAll(async () => {
    await stack?.close()
    rmSync(staticDir, { recursive: true, force: true })
  })

  async function signIn(): Promise<void> {
    const signedIn = await signInDemoWithPage(stack, pageId)
    session = signedIn.session
    pageToken = signedIn.pageToken
    const page = await stack.json(
      'POST',
      '/api/v2/page',
      { id: pageId, name: 'Kanha Bakery', access_token: pageToken },
      session,
    )
    if (page.status !== 200) throw new Error(`page registration failed: ${page.status}`)
  }

  /** Signs in again when a route just fuzzed ended the session (logout, revoking sessions). */
  async function stillSignedIn(): Promise<void> {
    const res = await stack.app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: { authorization: `Bearer ${session}` },
    })
    if (res.statusCode !== 200) await signIn()
  }

  async function send(
    route: Route,
    path: string,
    query: string,
    payload?: { type: string; text: string },
  ): Promise<Answer> {
    const abort = new AbortController()
    tried++
    const res = await stack.app.inject({
      method: route.method as 'GET',
      url: `${path}${query ? `?${query}` : ''}`,
      headers: {
        authorization: `Bearer ${session}`,
        ...(payload ? { 'content-type': payload.type } : {}),
      },
      ...(payload ? { payload: payload.text } : {}),
      payloadAsStream: true,
      signal: abort.signal,
    })
    let body = ''
    // An event stream that was opened never ends by itself: its status is all that is read.
    if (String(res.headers['content-type']).includes('text/event-stream')) abort.abort()
    else for await (const chunk of res.stream()) body += String(chunk)
    if (res.statusCode < 300 && route.url.startsWith('/api/v2/') && !route.url.includes('login'))
      reached.add(`${route.method} ${route.url}`)
    if (res.statusCode >= 500) {
      const sent = payload ? payload.text.slice(0, 120) : ''
      failures.push(
        `${res.statusCode} ${route.method} ${route.url} ${`${path}?${query}`.slice(0, 160)} ${sent}`,
      )
    }
    return { status: res.statusCode, body }
  }

  const sendJson = (route: Route, path: string, query: string, body: unknown) =>
    send(
      route,
      path,
      query,
      withBody(route.method) ? { type: 'application/json', text: toJson(body) } : undefined,
    )

  /** The route's path with each parameter given `value(name)`. */
  const fill = (url: string, value: (name: string) => string) =>
    url.replace(/:([A-Za-z0-9_]+)|\*/g, (m, name: string | undefined) => value(name ?? m))
  const params = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*')
  const normalParam = (name: string) => (/page/i.test(name) ? pageId : name === '*' ? 'x' : '1')

  /** The field names a route names in its 422 `errors`. */
  function errorFields(answer: Answer): string[] {
    if (answer.status !== 422) return []
    try {
      const errors = (JSON.parse(answer.body) as { errors?: Record<string, string[]> }).errors ?? {}
      return Object.keys(errors).filter((f) => f !== 'body')
    } catch {
      return []
    }
  }

  function errorMessages(answer: Answer, field: string): string {
    try {
      return ((JSON.parse(answer.body) as { errors?: Record<string, string[]> }).errors?.[field] ?? []).join(
        ' ',
      )
    } catch {
      return ''
    }
  }

  /** The value a field's message asks for: `expected "PUT"`, `expected one of "OK"|"NG"`. */
  const expectedValue = (answer: Answer, field: string) =>
    errorMessages(answer, field).match(/"([^"]+)"/)?.[1]

  /** A body (or query) the route accepts, or the nearest one found, and every field it knows. */
  async function learn(route: Route, path: string, baseQuery: string) {
    const inBody = withBody(route.method)
    const encode = (values: Record<string, unknown>) =>
      [
        baseQuery,
        ...Object.entries(values).map(
          ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`,
        ),
      ]
        .filter(Boolean)
        .join('&')
    const attempt = (values: Record<string, unknown>) =>
      inBody ? sendJson(route, path, baseQuery, values) : send(route, path, encode(values))
    // The fields it asks for, then the ones it knows among every contract field (given a wrong type).
    const wanted = (answer: Answer) =>
      errorFields(answer).filter((f) => !/not allowed/.test(errorMessages(answer, f)))
    const empty = await attempt({})
    const probe = await attempt(Object.fromEntries(FIELDS.map((f) => [f, inBody ? {} : '\u0001'])))
    const paths = [...new Set([...wanted(empty), ...wanted(probe)])]
    const fields = [...new Set([...paths.map((f) => f.split('.')[0]!), ...paths])]
    // Completes every one, trying the value its message asks for first, then the candidates in turn.
    const depth = (f: string) => f.split('.').length
    let values: Record<string, unknown> = {}
    let open = [...fields].sort((x, y) => depth(x) - depth(y))
    let answer = probe
    const candidates = CANDIDATES(pageId)
    for (let round = 0; round < candidates.length && open.length > 0; round++) {
      for (const f of open) {
        const own = round === 0 ? (expectedValue(empty, f) ?? expectedValue(probe, f)) : undefined
        values = withField(values, f, own ?? candidates[round])
      }
      answer = await attempt(values)
      open = wanted(answer).sort((x, y) => depth(x) - depth(y))
    }
    for (const f of open) values = withField(values, f, undefined)
    return { values, fields, encode }
  }

  async function fuzz(route: Route): Promise<void> {
    await stillSignedIn()
    const sandboxGraph = route.url.startsWith('/sandbox/graph')
    const baseQuery = sandboxGraph ? `access_token=${encodeURIComponent(pageToken)}` : ''
    const path = fill(route.url, normalParam)

    // Path parameters.
    for (const name of params(route.url))
      for (const value of URL_VALUES)
        await send(
          route,
          fill(route.url, (n) => (n === name ? value : normalParam(n))),
          baseQuery,
        )

    // Whole bodies.
    if (withBody(route.method))
      for (const [type, text] of WHOLE_BODIES) await send(route, path, baseQuery, { type, text })

    const { values, fields, encode } = await learn(route, path, baseQuery)
    const queryFields = withBody(route.method) ? ['access_token', 'fields', 'page_id'] : fields

    // Query values, one field at a time (a route with no query fields gets a few common names).
    for (const field of queryFields.length ? queryFields : ['access_token', 'fields', 'page_id'])
      for (const value of [...URL_VALUES, `a&${encodeURIComponent(field)}=b`]) {
        const query = withBody(route.method)
          ? `${baseQuery ? `${baseQuery}&` : ''}${encodeURIComponent(field)}=${value}`
          : `${encode(Object.fromEntries(Object.entries(values).filter(([k]) => k !== field)))}&${encodeURIComponent(field)}=${value}`
        await send(
          route,
          path,
          query,
          withBody(route.method) ? { type: 'application/json', text: toJson(values) } : undefined,
        )
      }
    if (!withBody(route.method)) return

    // Body fields, one at a time, the others as learnt.
    for (const [i, field] of fields.entries()) {
      const tries = i === 0 ? [...FIELD_VALUES, ...FIRST_FIELD_VALUES] : FIELD_VALUES
      for (const value of tries) await sendJson(route, path, baseQuery, withField(values, field, value))
    }
  }

  it('answers no 5xx', { timeout: 300_000 }, async () => {
    const unique = routes.filter(
      (r, i) => routes.findIndex((o) => o.method === r.method && o.url === r.url) === i,
    )
    expect(unique.length).toBeGreaterThan(50)
    for (const route of unique) await fuzz(route)
    console.log(
      `hostile input: ${unique.length} routes, ${tried} requests, ${failures.length} answered 5xx; ` +
        `${reached.size} signed-in API routes answered 2xx to a learnt request`,
    )
    expect(reached.size).toBeGreaterThanOrEqual(25)
    if (failures.length) console.log(failures.join('\n'))
    expect(failures).toEqual([])
  })
})
