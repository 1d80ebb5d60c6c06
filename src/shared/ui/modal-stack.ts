/**
 * The app's modals (docs/product-rules.md#modals: user/subscription, cancel-subscription, plans, add-ons) as
 * a stack any screen can push onto; the app shell renders it. The top modal is the last entry. The app keeps
 * it in the address bar (src/app/shell/modal-url.ts), so the platform's Back closes the top modal. Sheets a
 * screen draws itself (the chat's saved replies) are entries too, so Back closes them the same way; the
 * shell's host draws only the app's modals (`HostedModalName`).
 */
import { useSyncExternalStore } from 'react'

export type HostedModalName =
  | 'user'
  | 'cancel-subscription'
  | 'plans'
  | 'addons'
  | 'confirm-branded'
  | 'confirm-sign-out'
  | 'edit-scheduled'
  /** Cancelling a scheduled send, stopping a running one: asked once. */
  | 'cancel-scheduled'
  | 'cancel-send'
  /** The page's marketing messages: turn on, status, turn off (`?modal=marketing`). */
  | 'marketing'
  /** A page's send history and its sends' reports (`?modal=send-history`). */
  | 'send-history'

/** Sheets drawn by the screen that opens them, not by the shell. */
export type SheetName = 'saved-replies' | 'ask-to-subscribe' | 'send-update' | 'templates'

export type ModalName = HostedModalName | SheetName

let stack: readonly ModalName[] = []
const listeners = new Set<() => void>()

function set(next: readonly ModalName[]): void {
  stack = next
  for (const l of listeners) l()
}

export function openModal(name: ModalName): void {
  if (stack.at(-1) === name) return
  set([...stack.filter((n) => n !== name), name])
}

/** Closes the top modal, or the named one wherever it is in the stack. */
export function closeModal(name?: ModalName): void {
  if (!name) return set(stack.slice(0, -1))
  set(stack.filter((n) => n !== name))
}

export function closeAllModals(): void {
  set([])
}

/** Where to go once the modals are closed (see `closeModalsAndOpen`); read by the address bar's binder. */
let destination: string | undefined

/**
 * Closes every modal and opens an app path in their place: a link inside a modal (the account menu's
 * "Account"). The modals are drawn outside the router, so the address bar's binder does the navigation; the
 * new screen takes the modal's history entry, so Back from it leaves it.
 */
export function closeModalsAndOpen(href: string): void {
  destination = href
  set([])
}

export function takeModalDestination(): string | undefined {
  const href = destination
  destination = undefined
  return href
}

/** Sets the whole stack at once: the address bar's `modal` parameter changed (Back, a link opened). */
export function setModalStack(next: readonly ModalName[]): void {
  if (next.length === stack.length && next.every((n, i) => stack[i] === n)) return
  set(next)
}

const HOSTED: readonly HostedModalName[] = [
  'user',
  'cancel-subscription',
  'plans',
  'addons',
  'confirm-branded',
  'confirm-sign-out',
  'edit-scheduled',
  'cancel-scheduled',
  'cancel-send',
  'marketing',
  'send-history',
]

const NAMES: readonly ModalName[] = [...HOSTED, 'saved-replies', 'ask-to-subscribe', 'send-update', 'templates']

export function isHostedModal(name: ModalName): name is HostedModalName {
  return (HOSTED as readonly string[]).includes(name)
}

/** The stack in the address bar: `?modal=user.cancel-subscription`, bottom first. */
export function parseModalParam(value: unknown): ModalName[] {
  if (typeof value !== 'string' || !value) return []
  const names = value.split('.').filter((n): n is ModalName => (NAMES as readonly string[]).includes(n))
  return names.filter((n, i) => names.indexOf(n) === i)
}

export function modalParam(list: readonly ModalName[]): string | undefined {
  return list.length > 0 ? list.join('.') : undefined
}

export const modalStack = {
  getState: (): readonly ModalName[] => stack,
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useModalStack(): readonly ModalName[] {
  return useSyncExternalStore(modalStack.subscribe, modalStack.getState)
}

/** Whether the named modal or sheet is open (anywhere in the stack). */
export function useModalOpen(name: ModalName): boolean {
  return useSyncExternalStore(modalStack.subscribe, () => modalStack.getState().includes(name))
}
