import { describe, expect, it, vi } from 'vitest'
import { handleSwMessage, parseSwMessage } from './messages.ts'

describe('service worker messages', () => {
  it('activates the waiting worker when the page sends SKIP_WAITING', async () => {
    const skip = vi.fn(async () => undefined)
    await handleSwMessage({ type: 'SKIP_WAITING' }, skip)
    expect(skip).toHaveBeenCalledOnce()
  })

  it('ignores any other message so nothing else can force an update', async () => {
    const skip = vi.fn(async () => undefined)
    await handleSwMessage({ type: 'CLAIM' }, skip)
    await handleSwMessage('SKIP_WAITING', skip)
    await handleSwMessage(null, skip)
    expect(skip).not.toHaveBeenCalled()
    expect(parseSwMessage({})).toBeNull()
  })
})
