import { createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router'
import { afterEach, describe, expect, it } from 'vitest'
import {
  closeAllModals,
  closeModal,
  isHostedModal,
  modalStack,
  openModal,
  parseModalParam,
} from '../../shared/ui/modal-stack.ts'
import { bindModalsToUrl } from './modal-url.ts'

function setUp(start = '/42?c=7') {
  const history = createMemoryHistory({ initialEntries: [start] })
  const router = createRouter({ routeTree: createRootRoute(), history })
  const unbind = bindModalsToUrl(router)
  return { history, unbind }
}

const modalOf = (search: string) => new URLSearchParams(search).get('modal')

let unbind: (() => void) | undefined
afterEach(() => {
  unbind?.()
  closeAllModals()
})

describe('the open modals in the address bar', () => {
  it('pushes an entry per opened modal, and Back closes the top one', () => {
    const app = setUp()
    unbind = app.unbind
    openModal('user')
    expect(modalOf(app.history.location.search)).toBe('user')
    openModal('cancel-subscription')
    expect(modalOf(app.history.location.search)).toBe('user.cancel-subscription')
    expect(app.history.location.search).toContain('c=7')

    app.history.back()
    expect(modalStack.getState()).toEqual(['user'])
    app.history.back()
    expect(modalStack.getState()).toEqual([])
    expect(app.history.location.pathname + app.history.location.search).toBe('/42?c=7')
  })

  it('goes back when a modal is closed from the screen, so the next Back leaves no modal behind', () => {
    const app = setUp()
    unbind = app.unbind
    openModal('user')
    closeModal()
    expect(modalOf(app.history.location.search)).toBeNull()
    expect(app.history.canGoBack()).toBe(false)
  })

  it('opens the modals an address names, and closing one opened that way replaces the entry', () => {
    const app = setUp('/?modal=user.addons.nonsense')
    unbind = app.unbind
    expect(modalStack.getState()).toEqual(['user', 'addons'])
    closeModal('addons')
    expect(modalOf(app.history.location.search)).toBe('user')
    expect(app.history.canGoBack()).toBe(false)
  })

  it('keeps a screen’s sheet (the saved replies) in the address, so Back closes it; the host draws only the app’s modals', () => {
    const app = setUp()
    unbind = app.unbind
    openModal('saved-replies')
    expect(modalOf(app.history.location.search)).toBe('saved-replies')
    expect(modalStack.getState().filter(isHostedModal)).toEqual([])
    app.history.back()
    expect(modalStack.getState()).toEqual([])
    expect(app.history.location.pathname + app.history.location.search).toBe('/42?c=7')
    expect(parseModalParam('user.saved-replies')).toEqual(['user', 'saved-replies'])
  })
})
