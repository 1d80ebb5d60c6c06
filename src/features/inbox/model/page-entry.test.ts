import { describe, expect, it } from 'vitest'
import type { Account } from '../../../core/graph/types.ts'
import { enterPage, type PageEntryDeps } from './page-entry.ts'

const shop: Account = { id: '101', name: 'Shop', access_token: 'short', category: 'Retail' }
const apiError = (status: number, body: unknown) => Object.assign(new Error('refused'), { status, body })

function deps(over: Partial<PageEntryDeps> = {}): PageEntryDeps {
  return {
    accounts: [shop, { id: '102', name: 'No token' }],
    accessType: 'paid',
    registerPage: async () => ({}),
    extendPageToken: async () => 'long',
    ...over,
  }
}

describe('enterPage', () => {
  it('registers the page with its page token, so the server can ask the network who manages it', async () => {
    const sent: unknown[] = []
    const entry = await enterPage('101', deps({ registerPage: async (b) => (sent.push(b), {}) }))
    expect(entry).toMatchObject({ kind: 'ready', token: 'long' })
    expect(sent).toEqual([
      { id: '101', name: 'Shop', category: 'Retail', picture: null, fan_count: null, access_token: 'short' },
    ])
  })

  it("passes on whether the page's live updates work", async () => {
    const refused = { ok: false, error: '(#200) pages_manage_metadata' }
    expect(await enterPage('101', deps({ registerPage: async () => ({ webhooks: refused }) }))).toMatchObject(
      {
        kind: 'ready',
        webhooks: refused,
      },
    )
    expect(await enterPage('101', deps())).not.toHaveProperty('webhooks')
  })

  it('treats a page missing from the accounts, or without a token, as absent', async () => {
    expect(await enterPage('999', deps())).toEqual({ kind: 'absent' })
    expect(await enterPage('102', deps())).toEqual({ kind: 'absent' })
  })

  it('tells a used trial from a banned page by the refusal code', async () => {
    const trial = deps({
      registerPage: () => Promise.reject(apiError(406, { message: 'x', code: 'trial_used' })),
    })
    expect(await enterPage('101', trial)).toEqual({ kind: 'refused', reason: 'trial_used' })
    const banned = deps({
      accessType: 'trial',
      registerPage: () => Promise.reject(apiError(406, { message: 'x', code: 'page_banned' })),
    })
    expect(await enterPage('101', banned)).toEqual({ kind: 'refused', reason: 'banned' })
  })

  it('reads an uncoded refusal as the used trial only for a trial user', async () => {
    const refuse = () => Promise.reject(apiError(406, { message: 'x' }))
    expect(await enterPage('101', deps({ accessType: 'trial', registerPage: refuse }))).toEqual({
      kind: 'refused',
      reason: 'trial_used',
    })
    expect(await enterPage('101', deps({ registerPage: refuse }))).toEqual({
      kind: 'refused',
      reason: 'banned',
    })
  })

  it('reports no connection apart from other failures', async () => {
    expect(
      await enterPage('101', deps({ registerPage: () => Promise.reject(apiError(0, undefined)) })),
    ).toEqual({ kind: 'offline' })
    expect(await enterPage('101', deps({ registerPage: () => Promise.reject(apiError(500, {})) }))).toEqual({
      kind: 'failed',
    })
  })

  it('keeps the short-lived token when it cannot be extended', async () => {
    const entry = await enterPage('101', deps({ extendPageToken: () => Promise.reject(new Error('no')) }))
    expect(entry).toMatchObject({ kind: 'ready', token: 'short' })
  })
})
