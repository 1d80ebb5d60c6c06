/**
 * Cancelling a send asks once, saying what happens: a scheduled send cancelled reaches nobody; a running send
 * stopped reaches none of the customers it has not reached yet. Each is a modal of the app's stack
 * (`?modal=cancel-scheduled`, `?modal=cancel-send`), so Back keeps the send.
 */
import { Trans } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { cancelScheduledMessage } from '../../../shared/api'
import { ConfirmBody } from '../../../shared/ui/confirm-body.tsx'
import { closeModal, openModal } from '../../../shared/ui/modal-stack.ts'
import { SERVER_JOBS_KEY } from '../../../shared/bulk/server-jobs.ts'
import { cancelJob } from '../api/job-controls.ts'
import { SCHEDULED_KEY } from '../api/queries.ts'

/** Which send the open confirmation is about (kept for the tab, so a reload with `?modal=` still knows it). */
const CANCELLING = 'pagecast.cancel-send'

export function confirmCancelScheduled(id: string): void {
  sessionStorage.setItem(CANCELLING, id)
  openModal('cancel-scheduled')
}

export function confirmCancelSend(id: string): void {
  sessionStorage.setItem(CANCELLING, id)
  openModal('cancel-send')
}

export function CancelScheduledBody() {
  const client = useQueryClient()
  const close = () => closeModal('cancel-scheduled')
  return (
    <ConfirmBody
      testId="cancel-scheduled-confirm"
      keepLabel={<Trans>Keep it</Trans>}
      confirmLabel={<Trans>Cancel the send</Trans>}
      onKeep={close}
      onConfirm={async () => {
        const id = sessionStorage.getItem(CANCELLING)
        try {
          if (id) await cancelScheduledMessage(id)
        } catch {
          // The API client has already told the user.
        }
        await client.invalidateQueries({ queryKey: SCHEDULED_KEY })
        close()
      }}
    >
      <p>
        <Trans>Nobody will receive this message. To change its time or text instead, choose Edit.</Trans>
      </p>
    </ConfirmBody>
  )
}

export function CancelSendBody() {
  const client = useQueryClient()
  const close = () => closeModal('cancel-send')
  return (
    <ConfirmBody
      testId="cancel-send-confirm"
      keepLabel={<Trans>Keep sending</Trans>}
      confirmLabel={<Trans>Stop the send</Trans>}
      onKeep={close}
      onConfirm={async () => {
        const id = sessionStorage.getItem(CANCELLING)
        try {
          if (id) await cancelJob(id)
        } catch {
          // The API client has already told the user.
        }
        // Every device lists the job from the server: this one reads its end at once.
        await client.invalidateQueries({ queryKey: SERVER_JOBS_KEY })
        close()
      }}
    >
      <p>
        <Trans>
          The customers this send has not reached yet will not get the message. Messages already sent stay
          sent. A stopped send cannot be resumed.
        </Trans>
      </p>
    </ConfirmBody>
  )
}
