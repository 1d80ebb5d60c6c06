/** Cancel-subscription modal: a required reason (docs/product-rules.md#modals). */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { buttonDanger } from '../../../shared/ui/button-styles.ts'
import { closeModal } from '../../../shared/ui/modal-stack.ts'
import { cancelSubscription } from '../api/cancel-subscription.ts'
import { mySubscriptionKey } from '../api/my-subscription.ts'

export function CancelModalBody() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const id = useId()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!reason.trim()) {
      setError(t`Required`)
      return
    }
    setBusy(true)
    try {
      await cancelSubscription(reason.trim())
      await queryClient.invalidateQueries({ queryKey: mySubscriptionKey })
      closeModal('cancel-subscription')
    } catch {
      // A failed cancel only clears the loading state (docs/product-rules.md#error-catalogue).
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        <Trans>Tell us, Why leaving us?</Trans>
      </label>
      <textarea
        dir="auto"
        id={id}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value)
          setError(undefined)
        }}
        placeholder={t`Message`}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="w-full rounded-lg border border-slate-300 p-3 text-sm"
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" className={buttonDanger} disabled={busy}>
        {busy ? <Trans>Loading...</Trans> : <Trans>Cancel subscription</Trans>}
      </button>
    </form>
  )
}
