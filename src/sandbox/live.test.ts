import { describe, expect, it } from 'vitest'
import { startSandbox } from './test-support.ts'

describe('the live sandbox', () => {
  it('delivers new customer messages every liveMs, which reopen the window and lead the list', async () => {
    const sb = await startSandbox({ liveMs: 40 })
    try {
      const small = await sb.pageToken(sb.ids.small)
      const large = await sb.pageToken(sb.ids.large)
      const before = [
        (await sb.client.conversations(sb.ids.small, small, { limit: 1 })).data[0],
        (await sb.client.conversations(sb.ids.large, large, { limit: 1 })).data[0],
      ]
      await new Promise((r) => setTimeout(r, 400))
      const after = [
        (await sb.client.conversations(sb.ids.small, small, { limit: 1 })).data[0],
        (await sb.client.conversations(sb.ids.large, large, { limit: 1 })).data[0],
      ]
      const fresh = after.filter(
        (c, i) => c!.updated_time !== before[i]!.updated_time || c!.id !== before[i]!.id,
      )
      expect(fresh.length).toBeGreaterThan(0)
      for (const c of fresh)
        expect(Date.now() - Date.parse(c!.updated_time.replace('+0000', 'Z'))).toBeLessThan(2_000)
    } finally {
      await sb.app.close()
    }
  })

  it('answers CORS preflights and allows any origin on the Graph API, like the network', async () => {
    const sb = await startSandbox()
    try {
      const pre = await fetch(`${sb.url}/graph/v25.0/me/messages`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-headers')).toContain('content-type')
      const res = await fetch(`${sb.url}/graph/v25.0/me?access_token=nope`)
      expect(res.status).toBe(400)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    } finally {
      await sb.app.close()
    }
  })
})
