import { describe, expect, it } from 'vitest'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { Avatar } from './avatar.tsx'
import defaultAvatar from './default-avatar.svg'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('Avatar', () => {
  it('falls back to the default image when the picture cannot load', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    await act(async () => root.render(<Avatar src="/no-such-picture.png" />))
    const img = host.querySelector('img')!
    await act(async () => {
      img.dispatchEvent(new Event('error'))
    })
    const fallback = host.querySelector('img')!
    expect(fallback.getAttribute('src')).toBe(defaultAvatar)
    expect(fallback.dataset.testid).toBe('avatar-fallback')
    expect(host.textContent).toBe('')
    act(() => root.unmount())
    host.remove()
  })

  it('shows the default image when there is no picture at all', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    await act(async () => root.render(<Avatar />))
    expect(host.querySelector('img')?.getAttribute('src')).toBe(defaultAvatar)
    act(() => root.unmount())
    host.remove()
  })
})
