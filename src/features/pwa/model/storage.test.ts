import { describe, expect, it, vi } from 'vitest'
import { checkStorageLow, isStorageLow, requestPersistentStorage } from './storage.ts'

const MB = 1024 * 1024
const fakeStorage = (over: Partial<StorageManager>): StorageManager =>
  ({
    persisted: async () => false,
    persist: async () => true,
    estimate: async () => ({ usage: 0, quota: 1000 * MB }),
    ...over,
  }) as StorageManager

describe('storage helpers', () => {
  it('asks for persistent storage when it is not yet granted', async () => {
    const persist = vi.fn(async () => true)
    expect(await requestPersistentStorage(fakeStorage({ persist }))).toBe(true)
    expect(persist).toHaveBeenCalledOnce()
  })

  it('does not ask again when storage is already persistent', async () => {
    const persist = vi.fn(async () => true)
    expect(await requestPersistentStorage(fakeStorage({ persisted: async () => true, persist }))).toBe(true)
    expect(persist).not.toHaveBeenCalled()
  })

  it('answers false instead of throwing when the browser refuses or lacks the API', async () => {
    expect(
      await requestPersistentStorage(fakeStorage({ persist: async () => Promise.reject(new Error('no')) })),
    ).toBe(false)
    expect(await requestPersistentStorage(undefined)).toBe(false)
  })

  it('calls storage low when little quota is free or most of it is used', () => {
    expect(isStorageLow({ usage: 980 * MB, quota: 1000 * MB })).toBe(true)
    expect(isStorageLow({ usage: 95 * MB, quota: 100 * MB })).toBe(true)
    expect(isStorageLow({ usage: 100 * MB, quota: 1000 * MB })).toBe(false)
    expect(isStorageLow({})).toBe(false)
  })

  it('checks the estimate of the real browser without error', async () => {
    expect(
      await checkStorageLow(fakeStorage({ estimate: async () => ({ usage: 999 * MB, quota: 1000 * MB }) })),
    ).toBe(true)
    expect(typeof (await checkStorageLow())).toBe('boolean')
  })
})
