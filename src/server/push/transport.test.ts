/**
 * The connection a push takes: the push service's host is resolved once, every address vetted, and the
 * connection pinned to the vetted answer. A TCP listener on loopback counts what reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackListener } from '../testing/loopback-listener.ts'
import { postToPushService } from './transport.ts'

describe('the connection to a push service', () => {
  let listener: Awaited<ReturnType<typeof loopbackListener>>
  beforeAll(async () => {
    listener = await loopbackListener()
  })
  afterAll(() => listener.close())

  const post = (url: string, options: Parameters<typeof postToPushService>[2]) =>
    postToPushService(url, { headers: {}, body: Buffer.from('x'), timeoutMs: 2000 }, options)

  it('is refused before connecting when the host resolves to a loopback address', async () => {
    const before = listener.connections()
    let lookups = 0
    await expect(
      post(`https://rebind.test:${listener.port}/push`, {
        resolve: async () => {
          lookups++
          return ['127.0.0.1']
        },
      }),
    ).rejects.toThrow(/not a public address/)
    expect(lookups).toBe(1)
    expect(listener.connections() - before).toBe(0)
  })

  it('connects to the address it vetted, not to a second answer of the DNS', async () => {
    // The vetting here admits 127.0.0.1 alone, so the pin is seen on loopback: the first answer is
    // vetted and connected to; a second lookup (127.0.0.2, where nothing listens) would get no connection.
    const before = listener.connections()
    const replies = [['127.0.0.1'], ['127.0.0.2']]
    await post(`https://rebind.test:${listener.port}/push`, {
      resolve: async () => replies.shift() ?? [],
      vet: (address) => (address === '127.0.0.1' ? undefined : 'not the test listener'),
    }).catch(() => undefined)
    expect(listener.connections() - before).toBe(1)
    expect(replies).toEqual([['127.0.0.2']])
  })
})
