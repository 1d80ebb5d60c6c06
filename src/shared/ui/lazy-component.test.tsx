import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { lazyComponent } from './lazy-component.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

function Greeting({ name }: { name: string }) {
  return <p data-testid="greeting">Hello {name}</p>
}

let root: Root | undefined
let host: HTMLElement | undefined
function mount(node: React.ReactNode) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  return act(async () => root!.render(node))
}
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  vi.useRealTimers()
})

describe('lazyComponent', () => {
  it('shows the fallback, then the component with its props once the code is there', async () => {
    let resolve!: (c: typeof Greeting) => void
    const lazy = lazyComponent(() => new Promise<typeof Greeting>((r) => (resolve = r)), <i>loading</i>)
    await mount(<lazy.View name="Dara" />)
    expect(host!.textContent).toBe('loading')
    await act(async () => resolve(Greeting))
    expect(host!.querySelector('[data-testid="greeting"]')?.textContent).toBe('Hello Dara')
  })

  it('renders a component loaded beforehand at once, without the fallback, and fetches it once', async () => {
    const fetchIt = vi.fn(() => Promise.resolve(Greeting))
    const lazy = lazyComponent(fetchIt, <i>loading</i>)
    await lazy.load()
    const seen: string[] = []
    const observer = new MutationObserver(() => seen.push(host!.textContent ?? ''))
    host = document.createElement('div')
    document.body.append(host)
    observer.observe(host, { childList: true, subtree: true, characterData: true })
    root = createRoot(host)
    await act(async () => root!.render(<lazy.View name="Sokha" />))
    observer.disconnect()
    expect(seen).not.toContain('loading')
    expect(host.textContent).toBe('Hello Sokha')
    expect(fetchIt).toHaveBeenCalledTimes(1)
  })

  it('tries a failed fetch again and shows the component when it finally arrives', async () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    let calls = 0
    const lazy = lazyComponent(
      () => {
        calls += 1
        return calls < 3 ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(Greeting)
      },
      <i>loading</i>,
    )
    await mount(<lazy.View name="Rina" />)
    expect(host!.textContent).toBe('loading')
    await act(async () => vi.advanceTimersByTime(1_000))
    expect(calls).toBe(2)
    expect(host!.textContent).toBe('loading')
    await act(async () => vi.advanceTimersByTime(2_000))
    expect(calls).toBe(3)
    expect(host!.textContent).toBe('Hello Rina')
  })
})
