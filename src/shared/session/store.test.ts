import { afterEach, describe, expect, it } from 'vitest'
import { sessionStore, setSubscription } from './store.ts'
import type { SubscriptionState } from '../../core/contracts/api.ts'

const subscription = (available: number) =>
  ({ available_messages: available, accepted_terms: true }) as unknown as SubscriptionState

afterEach(() => sessionStore.reset({ status: 'loading', accounts: [] }))

describe('sessionStore', () => {
  it('tells its listeners when a value changes, and not when the same data arrives again', () => {
    sessionStore.reset({ status: 'logged_in', accounts: [], subscription: subscription(500) })
    let calls = 0
    const stop = sessionStore.subscribe(() => (calls += 1))
    const before = sessionStore.getState()
    // The server answered the same subscription again (a new object with the same content).
    setSubscription(subscription(500))
    sessionStore.setState({ accounts: [] })
    expect(calls).toBe(0)
    expect(sessionStore.getState()).toBe(before)
    setSubscription(subscription(499))
    expect(calls).toBe(1)
    expect(sessionStore.getState().subscription).toEqual(subscription(499))
    stop()
  })

  it('always tells its listeners about a reset (login, logout)', () => {
    let calls = 0
    const stop = sessionStore.subscribe(() => (calls += 1))
    sessionStore.reset({ status: 'loading', accounts: [] })
    expect(calls).toBe(1)
    stop()
  })
})
