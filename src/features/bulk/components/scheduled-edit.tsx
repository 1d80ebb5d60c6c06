/**
 * Editing a scheduled send before it starts: its date and time (in this device's zone) and its text, in the
 * `edit-scheduled` modal (`?modal=edit-scheduled`, so Back closes it). The server's 422 errors map is shown
 * beside the fields it names; a send that started meanwhile (409) is said so.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError, editScheduledMessage } from '../../../shared/api'
import { SCHEDULED_KEY, scheduledQueryOptions } from '../api/queries.ts'
import { MESSAGE_TEXT_MAX } from '../../../core/constants/limits.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { closeModal, openModal } from '../../../shared/ui/modal-stack.ts'

/** Which scheduled send the modal edits (kept for the tab, so a reload with `?modal=` still knows it). */
const EDITING = 'pagecast.edit-scheduled'

export function editScheduled(id: string): void {
  sessionStorage.setItem(EDITING, id)
  openModal('edit-scheduled')
}

/** A time as a `datetime-local` value in this device's zone. */
export function localInputValue(ms: number): string {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
}

type Field = 'scheduled_at' | 'message' | 'form'

export function EditScheduledBody() {
  const { data } = useQuery(scheduledQueryOptions())
  const id = sessionStorage.getItem(EDITING)
  if (!data) return <LoadingDots />
  const stored = data.find((m) => m.id === id)
  if (!stored) {
    return (
      <div className="space-y-4 text-sm text-slate-700" data-testid="scheduled-edit-gone">
        <p>
          <Trans>This send has started or was cancelled: it can no longer be edited.</Trans>
        </p>
        <div className="flex justify-end">
          <button type="button" className={buttonSecondary} onClick={() => closeModal('edit-scheduled')}>
            <Trans>Close</Trans>
          </button>
        </div>
      </div>
    )
  }
  return (
    <EditForm
      id={stored.id}
      at={Date.parse(stored.scheduled_at ?? stored.created_at)}
      message={stored.message}
    />
  )
}

function EditForm(props: { id: string; at: number; message: string }) {
  const { t } = useLingui()
  const client = useQueryClient()
  const [when, setWhen] = useState(() => localInputValue(props.at))
  const [message, setMessage] = useState(props.message)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)

  /** The owner's words for what the server refused; the server's own message for anything else. */
  const say = (field: Field, server: string | undefined): string => {
    if (field === 'scheduled_at') return t`Choose a date and time in the future.`
    if (field === 'message') return t`Enter a message of at most 2,000 characters.`
    return server ?? t`The send could not be changed. Try again.`
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const at = when ? new Date(when).getTime() : NaN
    if (!Number.isFinite(at)) return setErrors({ scheduled_at: say('scheduled_at', undefined) })
    setBusy(true)
    setErrors({})
    try {
      await editScheduledMessage(props.id, {
        scheduled_at: at,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        ...(message !== props.message ? { message } : {}),
      })
      await client.invalidateQueries({ queryKey: SCHEDULED_KEY })
      closeModal('edit-scheduled')
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0
      const map =
        (err instanceof ApiError ? (err.body as { errors?: Record<string, string[]> })?.errors : undefined) ??
        {}
      if (status === 422 && Object.keys(map).length > 0) {
        const next: Partial<Record<Field, string>> = {}
        for (const [key, list] of Object.entries(map)) {
          const field: Field = key === 'scheduled_at' || key === 'message' ? key : 'form'
          next[field] = say(field, list[0])
        }
        setErrors(next)
      } else if (status === 409) {
        setErrors({ form: t`This send has started: it can no longer be edited.` })
        void client.invalidateQueries({ queryKey: SCHEDULED_KEY })
      } else if (status === 0) {
        setErrors({ form: t`You are offline. Try again when you are back online.` })
      } else {
        setErrors({ form: say('form', undefined) })
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="space-y-4 text-sm"
      onSubmit={(e) => void submit(e)}
      noValidate
      data-testid="scheduled-edit"
    >
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">
          <Trans>Date and time</Trans>
        </span>
        <input
          type="datetime-local"
          className="min-w-0 rounded-lg border border-slate-300 p-2"
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          aria-invalid={errors.scheduled_at ? true : undefined}
          aria-describedby={errors.scheduled_at ? 'scheduled-edit-at-error' : undefined}
          data-testid="scheduled-edit-at"
        />
        {errors.scheduled_at ? (
          <span id="scheduled-edit-at-error" className="text-red-700" role="alert">
            {errors.scheduled_at}
          </span>
        ) : null}
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">
          <Trans>Message</Trans>
        </span>
        <textarea
          dir="auto"
          rows={4}
          maxLength={MESSAGE_TEXT_MAX}
          className="min-w-0 rounded-lg border border-slate-300 p-2"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'scheduled-edit-text-error' : undefined}
          data-testid="scheduled-edit-text"
        />
        {errors.message ? (
          <span id="scheduled-edit-text-error" className="text-red-700" role="alert">
            {errors.message}
          </span>
        ) : null}
      </label>
      {errors.form ? (
        <p className="text-red-700" role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={() => closeModal('edit-scheduled')}>
          <Trans>Close without saving</Trans>
        </button>
        <button type="submit" className={buttonPrimary} disabled={busy} data-testid="scheduled-edit-save">
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  )
}
