/**
 * The state of a waiting app update, shared by the registration code (which learns about the waiting
 * worker) and the prompt (which asks the user). A tiny external store for `useSyncExternalStore`.
 */

export interface UpdateState {
  /** A new service worker is installed and waiting for the user's agreement. */
  waiting: boolean
  /** The user agreed while a bulk job was sending: the update applies once sending stops. */
  deferred: boolean
}

type Listener = () => void

export interface UpdateStore {
  get(): UpdateState
  subscribe(listener: Listener): () => void
  set(patch: Partial<UpdateState>): void
  /** What "Reload" does; installed by the registration code. */
  accept(): Promise<void>
  setAccept(fn: () => Promise<void>): void
}

export function createUpdateStore(): UpdateStore {
  let state: UpdateState = { waiting: false, deferred: false }
  let accept: () => Promise<void> = async () => undefined
  const listeners = new Set<Listener>()
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(patch) {
      state = { ...state, ...patch }
      for (const l of listeners) l()
    },
    accept: () => accept(),
    setAccept(fn) {
      accept = fn
    },
  }
}

export const updateStore = createUpdateStore()
