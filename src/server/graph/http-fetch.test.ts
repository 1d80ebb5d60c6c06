import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGraphTransport } from '../../core/graph/client.ts'
import { isGraphError } from '../../core/graph/errors.ts'
import { httpFetch } from './http-fetch.ts'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  socket: number
}

let server: Server
let base = ''
const seen: Seen[] = []
let sockets = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const socket = (req.socket as { id?: number }).id ?? 0
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, socket })
      const path = new URL(req.url!, 'http://x').pathname
      if (path === '/v1/slow') return // never answered: the caller's signal ends it
      if (path === '/v1/gzip' || path === '/v1/br') {
        const json = Buffer.from(JSON.stringify({ name: 'Añil ✓ ক', packed: path }))
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': path.slice(4) })
        return res.end(path === '/v1/gzip' ? gzipSync(json) : brotliCompressSync(json))
      }
      if (path === '/v1/refused') {
        res.writeHead(400, { 'content-type': 'application/json', 'x-app-usage': '{"call_count":97}' })
        return res.end(
          JSON.stringify({ error: { message: 'No matching user found', code: 100, error_subcode: 2018001 } }),
        )
      }
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] })
      res.end(JSON.stringify({ recipient_id: '7', message_id: `m_${seen.length}` }))
    })
  })
  server.on('connection', (socket) => Object.assign(socket, { id: ++sockets }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('the server Graph transport', () => {
  it('posts the body with its headers and answers status, headers and text', async () => {
    const answer = await httpFetch(`${base}/v1/123/messages?access_token=t`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ message: { text: 'স্বাগতম' } }),
    })
    expect(answer.status).toBe(200)
    expect(answer.ok).toBe(true)
    expect(answer.headers.get('Content-Type')).toBe('application/json')
    expect(answer.headers.get('set-cookie')).toBe('a=1, b=2')
    expect(answer.headers.get('x-missing')).toBeNull()
    expect(JSON.parse(await answer.text())).toMatchObject({ recipient_id: '7' })
    const last = seen.at(-1)!
    expect(last).toMatchObject({ method: 'POST', url: '/v1/123/messages?access_token=t' })
    expect(JSON.parse(last.body)).toEqual({ message: { text: 'স্বাগতম' } })
    expect(last.headers['content-type']).toBe('application/json')
    expect(Number(last.headers['content-length'])).toBe(Buffer.byteLength(last.body))
    expect(last.headers['accept-encoding']).toContain('gzip')
  })

  it('keeps the connection for the next call', async () => {
    const before = seen.length
    for (let i = 0; i < 5; i++)
      await (await httpFetch(`${base}/v1/me`, { method: 'GET', headers: {} })).text()
    const used = new Set(seen.slice(before).map((s) => s.socket))
    expect(used.size).toBe(1)
  })

  it('unpacks gzip and Brotli answers', async () => {
    for (const way of ['gzip', 'br']) {
      const answer = await httpFetch(`${base}/v1/${way}`, { method: 'GET', headers: {} })
      expect(JSON.parse(await answer.text())).toEqual({ name: 'Añil ✓ ক', packed: `/v1/${way}` })
    }
  })

  it('ends a call its signal aborts', async () => {
    const call = httpFetch(`${base}/v1/slow`, {
      method: 'GET',
      headers: {},
      signal: AbortSignal.timeout(100),
    })
    await expect(call).rejects.toThrow()
  })

  it('rejects when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await expect(
      httpFetch(`http://127.0.0.1:${port}/v1/me`, { method: 'GET', headers: {} }),
    ).rejects.toThrow()
  })

  it('carries a Graph client: answers, refusals with their codes, and a call cut by its timeout', async () => {
    const graph = createGraphTransport({ baseUrl: base, version: 'v1', fetch: httpFetch, timeoutMs: 100 })
    await expect(
      graph.call('POST', '123/messages', { access_token: 'tok' }, { message: { text: 'hi' } }),
    ).resolves.toMatchObject({
      recipient_id: '7',
    })
    const refused = await graph.call('GET', 'refused', {}).catch((e: unknown) => e)
    expect(isGraphError(refused) && [refused.httpStatus, refused.code, refused.subcode]).toEqual([
      400, 100, 2018001,
    ])
    const slow = await graph.call('GET', 'slow', {}).catch((e: unknown) => e)
    expect(isGraphError(slow) && [slow.kind, slow.httpStatus]).toEqual(['network', 0])
  })
})
