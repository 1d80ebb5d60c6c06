/**
 * The reply box. What the user typed stays until the reply is delivered or queued, so an expired token or a
 * refusal never loses it.
 */
import { type FormEvent, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { WindowStatus } from '../../../shared/policy/window.ts'
import { WindowNotice } from './window-notice.tsx'

export interface ComposerProps {
  status: WindowStatus
  online: boolean
  trial: boolean
  /** Resolves true when the text may be cleared (delivered or queued). */
  onSend: (text: string, image: File | undefined) => Promise<boolean>
}

export function Composer({ status, online, trial, onSend }: ComposerProps) {
  const { t } = useLingui()
  const [text, setText] = useState('')
  const [image, setImage] = useState<File>()
  const [busy, setBusy] = useState(false)
  const fileRef = useRef<HTMLInputElement>(null)
  const disabled = !status.canSend || busy

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (disabled || text.trim() === '') return
    setBusy(true)
    try {
      if (await onSend(text, image)) {
        setText('')
        setImage(undefined)
        if (fileRef.current) fileRef.current.value = ''
      }
    } finally {
      setBusy(false)
    }
  }

  const pick = (files: FileList | null) => {
    const file = files?.[0]
    // Image files only (spec section 5); anything else is ignored.
    setImage(file && file.type.startsWith('image/') ? file : undefined)
    if (file && !file.type.startsWith('image/') && fileRef.current) fileRef.current.value = ''
  }

  return (
    <form
      onSubmit={submit}
      data-testid="composer"
      className="flex flex-col gap-2 border-t border-gray-200 bg-white p-3"
    >
      <WindowNotice status={status} />
      {!online ? (
        <p data-testid="composer-offline" className="text-xs text-gray-600">
          <Trans>You are offline: replies are kept and sent when the connection returns.</Trans>
        </p>
      ) : null}
      {image && trial ? (
        <p data-testid="watermark-warning" className="text-xs text-amber-800">
          <Trans>On a trial, images are sent with a watermark.</Trans>
        </p>
      ) : null}
      <textarea
        data-testid="reply-text"
        dir="auto"
        value={text}
        onChange={(e) => setText(e.target.value)}
        disabled={!status.canSend}
        rows={3}
        placeholder={t`Write a reply`}
        aria-label={t`Write a reply`}
        className="w-full resize-none rounded-md border border-gray-300 p-2 text-sm disabled:bg-gray-100"
      />
      <div className="flex items-center justify-between gap-2">
        <label
          className={`text-sm ${!status.canSend || !online ? 'text-gray-400' : 'cursor-pointer text-brand-700'}`}
        >
          <Trans>Add image</Trans>
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            data-testid="reply-image"
            className="sr-only"
            disabled={!status.canSend || !online}
            onChange={(e) => pick(e.target.files)}
          />
        </label>
        {image ? (
          <span dir="auto" className="min-w-0 flex-1 truncate text-xs text-gray-600">
            {image.name}
          </span>
        ) : null}
        <button
          type="submit"
          data-testid="reply-send"
          disabled={disabled}
          className="rounded-md bg-brand-600 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        >
          {busy ? <Trans>Sending…</Trans> : <Trans>Send</Trans>}
        </button>
      </div>
    </form>
  )
}
