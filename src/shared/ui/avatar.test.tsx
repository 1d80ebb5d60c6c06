import { describe, expect, it } from 'vitest'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { Avatar } from './avatar.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('Avatar', () => {
  it('falls back to the initial when the picture cannot load', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    await act(async () => root.render(<Avatar src="/no-such-picture.png" name="sokha" />))
    const img = host.querySelector('img')!
    await act(async () => {
      img.dispatchEvent(new Event('error'))
    })
    expect(host.querySelector('img')).toBeNull()
    expect(host.querySelector('[data-testid="avatar-fallback"]')?.textContent).toBe('S')
    act(() => root.unmount())
    host.remove()
  })
})
