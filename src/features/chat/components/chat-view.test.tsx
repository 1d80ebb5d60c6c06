import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, Profiler } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { GraphClient } from '../../../core/graph/types.ts'
import { ChatView } from './chat-view.tsx'

vi.mock('../../../shared/config/index.ts', () => ({
  useClientConfig: () => ({ graphUrl: 'http://127.0.0.1:9', graphVersion: 'v1' }),
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))

describe('a chat opened', () => {
  it('shows its header in its first frame, and its history and reply box in the frames after', async () => {
    host = document.createElement('div')
    host.style.cssText = 'display:flex;height:600px;width:360px'
    document.body.append(host)
    root = createRoot(host)
    const commits: { header: boolean; history: boolean; composer: boolean }[] = []
    const onRender = () =>
      commits.push({
        header:
          host!.querySelector('[data-testid="chat-view"] header')?.textContent?.includes('Ana Lim') ?? false,
        history: !!host!.querySelector('[data-testid="chat-history"]'),
        composer: !!host!.querySelector('textarea'),
      })
    await act(async () => {
      root!.render(
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={new QueryClient()}>
            <Profiler id="chat" onRender={onRender}>
              <ChatView
                pageId="p"
                customer={{ conversationId: 't_1', id: 'u1', name: 'Ana Lim', updatedAt: Date.now() }}
                graph={{} as GraphClient}
                pageToken={undefined}
                withToken={() => Promise.reject(new Error('offline'))}
                windowOptions={{ policy: 'current', humanAgentEnabled: false }}
                online={false}
                trial={false}
                uploadImage={() => Promise.reject(new Error('offline'))}
                onCustomerMessageAt={() => undefined}
                onBack={() => undefined}
              />
            </Profiler>
          </QueryClientProvider>
        </I18nProvider>,
      )
    })
    expect(commits[0]).toEqual({ header: true, history: false, composer: false })
    await act(frame)
    await act(frame)
    expect(commits.at(-1)).toEqual({ header: true, history: true, composer: true })
  })
})
