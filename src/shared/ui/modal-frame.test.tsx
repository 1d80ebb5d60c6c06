import { beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { ModalFrame } from './modal-frame.tsx'
import { reactRootPerTest } from '../testing/react-root.ts'

const t = reactRootPerTest()

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})

async function mountStack(onClose: (name: string) => void) {
  // Both at once, as a link or a reload with `?modal=user.addons` opens them.
  await act(async () =>
    t.root.render(
      <I18nProvider i18n={i18n}>
        <ModalFrame
          title="My subscription"
          onClose={() => onClose('user')}
          stacked={
            <ModalFrame title="Buy more messages" onClose={() => onClose('addons')}>
              <button type="button">Buy 1,000</button>
            </ModalFrame>
          }
        >
          <button type="button">Plans</button>
        </ModalFrame>
      </I18nProvider>,
    ),
  )
  // The dialogs settle their focus on the next frames.
  await act(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

function panels(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="modal"]')]
}

describe('a stack of modals opened at once', () => {
  it('draws the stacked modal over its parent and gives it the focus', async () => {
    await mountStack(() => undefined)
    const [parent, top] = panels()
    expect(parent?.textContent).toContain('My subscription')
    expect(top?.textContent).toContain('Buy more messages')
    // Later in the document at the same layer: drawn over the parent.
    expect(parent!.compareDocumentPosition(top!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    const r = top!.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    expect(top!.contains(hit)).toBe(true)
    // The focus is in the top dialog (Headless UI focuses the dialog itself), not in its parent's panel.
    const topDialog = top!.closest('[role="dialog"]')!
    await vi.waitFor(() => expect(topDialog.contains(document.activeElement)).toBe(true))
    expect(parent!.contains(document.activeElement)).toBe(false)
  })

  it('closes only the top modal on Escape', async () => {
    const closed: string[] = []
    await mountStack((name) => closed.push(name))
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(closed).toEqual(['addons'])
  })
})
