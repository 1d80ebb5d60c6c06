import { afterEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { closeAllModals, modalStack, parseModalParam } from '../../../shared/ui/modal-stack.ts'
import { MarketingEntry } from './marketing-entry.tsx'

let enabled = false
let reads = 0
vi.mock('../../../shared/api/client.ts', () => ({
  api: async () => ({}),
  silentApi: async () => {
    reads++
    return {
      enabled,
      ad_account: null,
      country: 'MX',
      available: true,
      subscribers: { active: 0, stopped: 0 },
      tokens_synced_at: null,
      optin_title_default: 'Updates and promotions',
    }
  },
}))

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined
async function render(variant: 'header' | 'sidebar', ready = true) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={i18n}>
          <MarketingEntry pageId="p1" variant={variant} ready={ready} />
        </I18nProvider>
      </QueryClientProvider>,
    )
  })
  return host.querySelector<HTMLButtonElement>(`[data-testid="marketing-entry-${variant}"]`)!
}
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  closeAllModals()
  enabled = false
  reads = 0
})

describe("the page's marketing messages entry", () => {
  it('opens the marketing modal, which the address bar can carry', async () => {
    const button = await render('header')
    expect(button.textContent).toContain('Marketing messages')
    await act(async () => button.click())
    expect(modalStack.getState()).toEqual(['marketing'])
    expect(parseModalParam('marketing')).toEqual(['marketing'])
  })

  it('says when they are on', async () => {
    enabled = true
    const button = await render('sidebar')
    await vi.waitFor(() => expect(button.textContent).toBe('Marketing messagesOn'))
  })

  it('reads nothing before the page is entered (the API answers 403 for a page not yet registered)', async () => {
    enabled = true
    const button = await render('header', false)
    await new Promise((r) => setTimeout(r, 50))
    expect(reads).toBe(0)
    expect(button.textContent).toBe('Marketing messages')
  })
})
