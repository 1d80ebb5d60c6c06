/**
 * Signing out from anywhere in the app (the sidebar, the account page's device list): it asks first, naming
 * the unsent work it would lose; then every tab's bulk sender stops, the server ends the session and the
 * device is wiped (src/shared/session/device-data.ts says why wiping, not keeping per user).
 */
import { logout } from '../../shared/session/actions.ts'
import { openModal } from '../../shared/ui/modal-stack.ts'

let signingOut: Promise<void> | undefined

export function signOut(): Promise<void> {
  signingOut ??= (async () => {
    try {
      const { stopBulkSenders } = await import('../../features/bulk/sender-host.ts')
      await stopBulkSenders()
    } catch (err) {
      console.warn('the bulk sender could not be stopped before signing out', err)
    }
    await logout()
  })().finally(() => {
    signingOut = undefined
  })
  return signingOut
}

/** The sign-out button: asks once, saying what signing out deletes (and what unsent work it would lose). */
export function requestSignOut(): void {
  openModal('confirm-sign-out')
}
