import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismiss, dismissAll, notificationStore, notify } from './store.ts'

afterEach(() => {
  dismissAll()
  vi.useRealTimers()
})

describe('notify', () => {
  it('closes an ordinary notification after 4000 ms', () => {
    vi.useFakeTimers()
    notify({ kind: 'success', title: 'Saved' })
    vi.advanceTimersByTime(3999)
    expect(notificationStore.getState()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(notificationStore.getState()).toHaveLength(0)
  })
  it('closes a warning and an error after 4000 ms too', () => {
    vi.useFakeTimers()
    notify({ kind: 'warning', title: 'Please check.' })
    notify({ kind: 'error', title: 'Internal Error' })
    vi.advanceTimersByTime(3999)
    expect(notificationStore.getState()).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(notificationStore.getState()).toHaveLength(0)
  })
  it('keeps a persistent notification with a way forward until it is dismissed', () => {
    vi.useFakeTimers()
    const id = notify({
      kind: 'warning',
      title: 'Trial used',
      persistent: true,
      action: { label: 'Buy', onClick: () => undefined },
    })
    vi.advanceTimersByTime(60_000)
    expect(notificationStore.getState()).toHaveLength(1)
    dismiss(id)
    expect(notificationStore.getState()).toHaveLength(0)
  })
  it('keeps a persistent error with nothing to do until it is closed', () => {
    vi.useFakeTimers()
    const id = notify({ kind: 'error', title: 'Message rejected', persistent: true })
    vi.advanceTimersByTime(60_000)
    expect(notificationStore.getState().map((n) => n.title)).toEqual(['Message rejected'])
    dismiss(id)
    expect(notificationStore.getState()).toHaveLength(0)
  })
  it('makes room with the oldest auto-closing one and keeps the persistent ones', () => {
    notify({ kind: 'error', title: 'Message rejected', persistent: true })
    for (let i = 0; i < 6; i++) notify({ kind: 'info', title: `n${i}` })
    expect(notificationStore.getState().map((n) => n.title)).toEqual([
      'Message rejected',
      'n2',
      'n3',
      'n4',
      'n5',
    ])
  })
  it('shows at most five at once', () => {
    for (let i = 0; i < 8; i++) notify({ kind: 'info', title: `n${i}` })
    expect(notificationStore.getState().map((n) => n.title)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7'])
  })
})
