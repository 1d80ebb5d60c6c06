/**
 * The modal stack lives in the address bar as `?modal=user.cancel-subscription`: opening a modal pushes a
 * history entry, Back (the phone's button, the browser's) closes the top one, a closed modal goes back, and a
 * link with the parameter opens the stack. The stack store (src/shared/ui/modal-stack.ts) stays what screens
 * use; this module keeps the two in step.
 */
import type { AnyRouter } from '@tanstack/react-router'
import {
  modalParam,
  modalStack,
  type ModalName,
  parseModalParam,
  setModalStack,
  takeModalDestination,
} from '../../shared/ui/modal-stack.ts'
import { openedHere } from './overlay-history.ts'

const PARAM = 'modal'

function stackInUrl(router: AnyRouter): ModalName[] {
  return parseModalParam(new URLSearchParams(router.history.location.search).get(PARAM))
}

function hrefWith(router: AnyRouter, list: readonly ModalName[]): string {
  const { pathname, search, hash } = router.history.location
  const params = new URLSearchParams(search)
  const value = modalParam(list)
  if (value) params.set(PARAM, value)
  else params.delete(PARAM)
  const query = params.toString()
  return `${pathname}${query ? `?${query}` : ''}${hash}`
}

const startsWith = (list: readonly ModalName[], prefix: readonly ModalName[]) =>
  prefix.every((n, i) => list[i] === n)

/** Binds the stack to the address bar for the app's lifetime; returns the unbinding. */
export function bindModalsToUrl(router: AnyRouter): () => void {
  let applying = false
  const fromUrl = () => {
    applying = true
    try {
      setModalStack(stackInUrl(router))
    } finally {
      applying = false
    }
  }
  const toUrl = () => {
    if (applying) return
    const destination = takeModalDestination()
    if (destination) return router.history.replace(destination)
    const wanted = modalStack.getState()
    const shown = stackInUrl(router)
    if (wanted.length === shown.length && startsWith(wanted, shown)) return
    const href = hrefWith(router, wanted)
    const top = shown.at(-1)
    if (wanted.length === shown.length + 1 && startsWith(wanted, shown))
      router.history.push(href, { opened: `modal:${wanted.at(-1)}` })
    else if (
      wanted.length === shown.length - 1 &&
      startsWith(shown, wanted) &&
      openedHere(router, `modal:${top}`)
    )
      router.history.back()
    else router.history.replace(href, { opened: router.history.location.state.opened })
  }
  fromUrl()
  const offHistory = router.history.subscribe(fromUrl)
  const offStack = modalStack.subscribe(toUrl)
  return () => {
    offHistory()
    offStack()
  }
}
