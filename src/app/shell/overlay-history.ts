/**
 * Things opened over a screen (a chat over the conversation list, the bulk wizard, a modal) each get a history
 * entry of their own, so the platform's Back closes them one by one before it leaves the screen. An entry
 * pushed to open something records what it opened in its history state; closing that thing is then a step
 * back, and closing anything else (a deep link opened cold, a reload that kept the address) is a replace.
 */
import type { AnyRouter } from '@tanstack/react-router'

declare module '@tanstack/history' {
  interface HistoryState {
    /** What this entry was pushed to open over the entry below it: 'chat', 'bulk' or 'modal:<name>'. */
    opened?: string
  }
}

/** Whether the current entry was pushed to open `what`, so closing it is the platform's Back. */
export function openedHere(router: AnyRouter, what: string): boolean {
  return router.history.location.state.opened === what
}
