import { describe, expect, it, vi } from 'vitest'
import { withFreshToken } from './fresh-token.ts'

const expired = { kind: 'auth' }
const throttled = { kind: 'throttle' }

/** A Graph call that fails with `failure` for each token in `refused` and answers with its token otherwise. */
function graphCall(refused: Record<string, unknown>) {
  return vi.fn(async (token: string) => {
    if (token in refused) throw refused[token]
    return `read with ${token}`
  })
}

describe('refreshing an expired token once', () => {
  it('answers with the first token when it works, without asking for another', async () => {
    const refresh = vi.fn(async () => 'fresh')
    expect(await withFreshToken('old', refresh, graphCall({}))).toBe('read with old')
    expect(refresh).not.toHaveBeenCalled()
  })

  it('runs the call once more with a fresh token after an expired one', async () => {
    const call = graphCall({ old: expired })
    expect(await withFreshToken('old', async () => 'fresh', call)).toBe('read with fresh')
    expect(call.mock.calls.map(([t]) => t)).toEqual(['old', 'fresh'])
  })

  it('refreshes only once: a fresh token refused too leaves that failure standing', async () => {
    const refresh = vi.fn(async () => 'fresh')
    const call = graphCall({ old: expired, fresh: expired })
    await expect(withFreshToken('old', refresh, call)).rejects.toBe(expired)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(call).toHaveBeenCalledTimes(2)
  })

  it('keeps the first failure when no fresh token is found', async () => {
    const call = graphCall({ old: expired })
    await expect(withFreshToken('old', async () => undefined, call)).rejects.toBe(expired)
    expect(call).toHaveBeenCalledTimes(1)
  })

  it('does not refresh for a failure other than an expired token', async () => {
    const refresh = vi.fn(async () => 'fresh')
    await expect(withFreshToken('old', refresh, graphCall({ old: throttled }))).rejects.toBe(throttled)
    expect(refresh).not.toHaveBeenCalled()
  })
})
