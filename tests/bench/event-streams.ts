/**
 * Opens owners' live event streams (`GET /api/v2/events`) for the benchmarks and tells each customer message
 * a stream receives, with the moment it arrived. Resolves once every stream said it is connected.
 */
import http from 'node:http'

export interface StreamTarget {
  /** The instance's address, e.g. http://127.0.0.1:3000 */
  base: string
  token: string
}

export async function openEventStreams(
  targets: readonly StreamTarget[],
  onMessage: (mid: string, at: number) => void,
  agent?: http.Agent,
): Promise<http.ClientRequest[]> {
  const requests: http.ClientRequest[] = []
  let connected = 0
  await new Promise<void>((resolve, reject) => {
    targets.forEach(({ base, token }, i) => {
      const req = http.get(
        `${base}/api/v2/events`,
        { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream ${i} on ${base}: ${res.statusCode}`))
          res.setEncoding('utf8')
          let buffer = ''
          let counted = false
          res.on('data', (chunk: string) => {
            const now = performance.now()
            buffer += chunk
            let cut: number
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut)
              buffer = buffer.slice(cut + 2)
              if (!counted && block.includes(': connected')) {
                counted = true
                if (++connected === targets.length) resolve()
              }
              const data = /^data: (.*)$/m.exec(block)?.[1]
              if (block.includes('event: message') && data)
                onMessage((JSON.parse(data) as { mid: string }).mid, now)
            }
          })
        },
      )
      req.on('error', reject)
      requests.push(req)
    })
  })
  return requests
}
