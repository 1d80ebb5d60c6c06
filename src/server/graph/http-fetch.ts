/**
 * The server's transport for its Graph calls: Node's own HTTP client on kept-alive connections, answering the
 * part of fetch a Graph client reads (status, headers, text). The platform's fetch builds a web stream, a
 * Request and a Response around every call; a bulk send is one call per message, and those layers cost the
 * sender about twice the CPU of the call itself (docs/decisions.md#server-graph-transport). Compressed answers
 * (gzip, Brotli) are asked for and unpacked, as fetch would.
 */
import http from 'node:http'
import https from 'node:https'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate } from 'node:zlib'
import type { Fetch, FetchAnswer } from '../../core/graph/client.ts'

/** Node's own defaults for a kept-alive client: the most recent free connection first, idle ones closed at 5 s. */
const agentOptions = { keepAlive: true, scheduling: 'lifo', timeout: 5_000 } as const
const plainAgent = new http.Agent(agentOptions)
const secureAgent = new https.Agent(agentOptions)

const unpack: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  br: promisify(brotliDecompress),
  deflate: promisify(inflate),
}

export const httpFetch: Fetch = (url, init) =>
  new Promise<FetchAnswer>((resolve, reject) => {
    const target = new URL(url)
    const secure = target.protocol === 'https:'
    const body = init.body === undefined ? undefined : Buffer.from(init.body)
    const req = (secure ? https : http).request(
      target,
      {
        method: init.method,
        agent: secure ? secureAgent : plainAgent,
        headers: {
          ...init.headers,
          'accept-encoding': 'gzip, br, deflate',
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const raw = Buffer.concat(chunks)
          const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase()
          const decoded = unpack[encoding]?.(raw) ?? Promise.resolve(raw)
          decoded.then((buf) => {
            const text = buf.toString('utf8')
            const status = res.statusCode ?? 0
            resolve({
              status,
              ok: status >= 200 && status < 300,
              headers: { get: (name) => headerValue(res.headers[name.toLowerCase()]) },
              text: () => Promise.resolve(text),
            })
          }, reject)
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null
  return Array.isArray(value) ? value.join(', ') : value
}
