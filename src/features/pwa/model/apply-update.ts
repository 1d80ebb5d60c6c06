/** What happens when the user agrees to an update: wait for sending to stop, then activate and reload. */
import type { UpdateStore } from './update-store.ts'

export interface UpdateDeps {
  store: UpdateStore
  isSending(): Promise<boolean>
  whenNotSending(): Promise<void>
  /** Tells the waiting worker to take over; the page reloads once it controls the page. */
  activate(): void
}

export async function applyUpdate({ store, isSending, whenNotSending, activate }: UpdateDeps): Promise<void> {
  if (await isSending()) {
    store.set({ deferred: true })
    await whenNotSending()
  }
  store.set({ waiting: false, deferred: false })
  activate()
}
