import { describe, expect, it, vi } from 'vitest'
import { applyUpdate } from './apply-update.ts'
import { createUpdateStore } from './update-store.ts'

describe('applying an update the user agreed to', () => {
  it('activates the new version at once when nothing is being sent', async () => {
    const store = createUpdateStore()
    store.set({ waiting: true })
    const activate = vi.fn()
    await applyUpdate({
      store,
      isSending: async () => false,
      whenNotSending: async () => undefined,
      activate,
    })
    expect(activate).toHaveBeenCalledOnce()
    expect(store.get()).toEqual({ waiting: false, deferred: false })
  })

  it('defers the reload while a bulk job is sending and applies it when sending stops', async () => {
    const store = createUpdateStore()
    store.set({ waiting: true })
    const activate = vi.fn()
    let stop!: () => void
    const stopped = new Promise<void>((r) => (stop = r))
    const done = applyUpdate({ store, isSending: async () => true, whenNotSending: () => stopped, activate })
    await vi.waitFor(() => expect(store.get().deferred).toBe(true))
    expect(activate).not.toHaveBeenCalled()
    stop()
    await done
    expect(activate).toHaveBeenCalledOnce()
    expect(store.get().waiting).toBe(false)
  })

  it('notifies subscribers of each change and stops after unsubscribing', () => {
    const store = createUpdateStore()
    const listener = vi.fn()
    const off = store.subscribe(listener)
    store.set({ waiting: true })
    off()
    store.set({ waiting: false })
    expect(listener).toHaveBeenCalledOnce()
  })
})
