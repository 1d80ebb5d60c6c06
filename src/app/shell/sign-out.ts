/**
 * Signing out from anywhere in the app (the sidebar, the account page's device list): a sign-out that would
 * lose unsent work asks first; then every tab's bulk sender stops, the server ends the session and the
 * device is wiped (src/shared/db/device-data.ts says why wiping, not keeping per user).
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

/** The sign-out button: straight out when nothing would be lost, else the confirm dialog first. */
export async function requestSignOut(): Promise<void> {
  const work = await import('../../shared/db/device-data.ts')
    .then((m) => m.unsentWork())
    .catch(() => undefined)
  if (work && (work.replies > 0 || work.bulkJobs > 0)) return openModal('confirm-sign-out')
  return signOut()
}
