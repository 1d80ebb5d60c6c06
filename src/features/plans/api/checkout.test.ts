import { i18n } from '@lingui/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissAll, notificationStore } from '../../../shared/notifications/store.ts'
import { captureReferral, storedReferral } from '../../../shared/session/referral.ts'
import { createCheckout } from './checkout.ts'

i18n.loadAndActivate({ locale: 'en', messages: {} })

afterEach(() => {
  vi.restoreAllMocks()
  dismissAll()
  sessionStorage.clear()
})

describe('the checkout call', () => {
  it('says a refused referral code, forgets it, and buys at the full price on the next try', async () => {
    captureReferral('?referral=anything-i-like')
    const bodies: { referral?: string | null }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as { referral?: string | null }
      bodies.push(body)
      return body.referral
        ? Response.json(
            {
              message: 'The given data was invalid.',
              errors: { referral: ['This referral code is not valid.'] },
            },
            { status: 422 },
          )
        : Response.json({ data: { url: 'http://pagecast.test/sandbox/checkout?session=cs_1' } })
    })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await expect(createCheckout('plan_starter_monthly', false)).rejects.toThrow()
    expect(notificationStore.getState()).toEqual([
      expect.objectContaining({
        kind: 'warning',
        title: 'Please check.',
        message: 'This referral code is not valid.',
      }),
    ])
    expect(storedReferral()).toEqual({})
    // The code the subscription still carries is not sent again either.
    const url = await createCheckout('plan_starter_monthly', false, 'anything-i-like')
    expect(url).toBe('http://pagecast.test/sandbox/checkout?session=cs_1')
    expect(bodies.map((b) => b.referral)).toEqual(['anything-i-like', null])
  })
})
