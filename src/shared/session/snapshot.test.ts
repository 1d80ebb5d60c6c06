import { afterEach, describe, expect, it } from 'vitest'
import { clearSnapshot, loadSnapshot, rememberSubscription, saveSnapshot } from './snapshot.ts'
import { testSubscription } from '../../core/testing/session.ts'

const KEY = 'pagecast-session-snapshot'

afterEach(() => clearSnapshot())

describe('offline session snapshot', () => {
  it('never writes a page token to localStorage', () => {
    saveSnapshot({
      fbUser: { id: '1', name: 'Dana' },
      accounts: [{ id: '10', name: 'Shop', access_token: 'secret-page-token', category: 'Retail' }],
    })
    const raw = localStorage.getItem(KEY) ?? ''
    expect(raw).not.toContain('secret-page-token')
    expect(raw).not.toContain('access_token')
    expect(loadSnapshot()?.accounts).toEqual([{ id: '10', name: 'Shop', category: 'Retail' }])
  })
  it('keeps only the public profile fields of the user', () => {
    const fbUser = {
      id: '1',
      name: 'Dana',
      accounts: { data: [{ id: '10', name: 'Shop', access_token: 'nested-token' }] },
    }
    saveSnapshot({ fbUser, accounts: [] })
    expect(localStorage.getItem(KEY)).not.toContain('nested-token')
    expect(loadSnapshot()?.fbUser).toEqual({ id: '1', name: 'Dana' })
  })
  it('drops a token even when an older copy had stored one', () => {
    // A snapshot written before tokens were stripped, as an older version of the app could have left it.
    const olderCopy = JSON.stringify({ accounts: [{ id: '10', name: 'Shop', access_token: 't' }] })
    localStorage.setItem(KEY, olderCopy)
    expect(loadSnapshot()?.accounts).toEqual([{ id: '10', name: 'Shop' }])
  })
  it('takes a newer subscription and keeps the pages that were connected', () => {
    saveSnapshot({
      accounts: [
        { id: '10', name: 'Shop', access_token: 'page-token' },
        { id: '11', name: 'Other' },
      ],
      subscription: testSubscription({ accepted_terms: false }),
    })
    rememberSubscription(testSubscription())
    expect(loadSnapshot()?.subscription?.accepted_terms).toBe(true)
    expect(loadSnapshot()?.connected).toEqual(['10'])
  })
  it('remembers nothing for a visitor with no saved session', () => {
    rememberSubscription(testSubscription())
    expect(loadSnapshot()).toBeUndefined()
  })
  it('answers nothing when no usable snapshot is stored', () => {
    expect(loadSnapshot()).toBeUndefined()
    localStorage.setItem(KEY, '{not json')
    expect(loadSnapshot()).toBeUndefined()
  })
})
