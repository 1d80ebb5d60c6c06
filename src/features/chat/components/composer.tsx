/**
 * The reply box. What the user typed stays until the reply is delivered or queued, so an expired token or a
 * refusal never loses it. A reply is text, an image, or both.
 *
 * Keys follow the device: with a desktop keyboard (a fine pointer) Enter sends and Shift+Enter starts a new
 * line; on a phone or tablet (a coarse pointer, a virtual keyboard) the return key keeps making new lines
 * and the Send button sends.
 */
import { type FormEvent, type KeyboardEvent, type ComponentType, useEffect, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { WindowStatus } from '../../../core/policy/window.ts'
import { formatSize } from '../../../core/format/index.ts'
import { useMediaQuery } from '../../../shared/ui/use-media-query.ts'
import { ComposerNotes } from './window-notice.tsx'

/** A touch screen as the main pointer: the device's return key is for new lines. */
const COARSE_POINTER = '(pointer: coarse)'

export interface ComposerToolsProps {
  disabled: boolean
  insert: (text: string) => void
}

export interface ComposerProps {
  status: WindowStatus
  online: boolean
  trial: boolean
  /**
   * Resolves true when the text may be cleared (delivered or queued). An image's upload tells `onProgress` the
   * bytes sent so far and their total.
   */
  onSend: (
    text: string,
    image: File | undefined,
    onProgress?: (sent: number, total: number) => void,
  ) => Promise<boolean>
  /** Whether Enter sends; by default it does unless the main pointer is coarse (a phone or tablet). */
  enterSends?: boolean
  /** Extra tools beside "Add image" (the saved replies); `insert` puts text into the reply at the caret. */
  Tools?: ComponentType<ComposerToolsProps>
  /** Told on every change of the typed text (the page's other people see who is replying). */
  onTyping?: () => void
}

/** How far an image's upload is: the bytes sent so far and their total. */
interface Upload {
  sent: number
  total: number
}

/** The image's upload under way: a bar, and the size sent of the size to send ("230 kB of 570 kB"). */
function UploadProgress({ upload }: { upload: Upload }) {
  const { t } = useLingui()
  const sent = formatSize(upload.sent)
  const total = formatSize(upload.total)
  return (
    <span data-testid="reply-image-progress" className="flex min-w-0 flex-1 flex-col gap-0.5" role="status">
      <span className="text-xs text-gray-600">
        <Trans>
          Sending the photo: {sent} of {total}
        </Trans>
      </span>
      <progress
        className="h-1.5 w-full max-w-40 accent-brand-600"
        value={upload.sent}
        max={Math.max(upload.total, 1)}
        aria-label={t`Sending the photo`}
      />
    </span>
  )
}

/** The picked image, shown small before sending; its object URL lives as long as the preview. */
function ImagePreview({ file, onRemove, upload }: { file: File; onRemove: () => void; upload?: Upload }) {
  const { t } = useLingui()
  const [url, setUrl] = useState<string>()
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is an external resource tied to the file
    setUrl(objectUrl)
    return () => URL.revokeObjectURL(objectUrl)
  }, [file])
  return (
    <div data-testid="reply-image-preview" className="ms-2 flex min-w-0 items-center gap-1">
      {url ? (
        <img
          src={url}
          alt={t`Image to send: ${file.name}`}
          data-testid="reply-image-preview-img"
          className="size-11 shrink-0 rounded-md border border-gray-200 object-cover"
        />
      ) : null}
      {upload ? (
        <UploadProgress upload={upload} />
      ) : (
        <span dir="auto" className="max-w-32 min-w-0 truncate text-xs text-gray-600 short:hidden">
          {file.name}
        </span>
      )}
      <button
        type="button"
        data-testid="reply-image-remove"
        onClick={onRemove}
        disabled={!!upload}
        aria-label={t`Remove the image`}
        className="min-h-11 shrink-0 rounded-md px-3 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
      >
        <Trans>Remove</Trans>
      </button>
    </div>
  )
}

export function Composer({ status, online, trial, onSend, enterSends, Tools, onTyping }: ComposerProps) {
  const { t } = useLingui()
  const coarse = useMediaQuery(COARSE_POINTER)
  const sendsOnEnter = enterSends ?? !coarse
  const [text, setText] = useState('')
  const [image, setImage] = useState<File>()
  const [busy, setBusy] = useState(false)
  const [upload, setUpload] = useState<Upload>()
  const fileRef = useRef<HTMLInputElement>(null)
  const textRef = useRef<HTMLTextAreaElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const disabled = !status.canSend || busy
  const empty = text.trim() === '' && !image

  const clearImage = () => {
    setImage(undefined)
    if (fileRef.current) fileRef.current.value = ''
  }

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (disabled || empty) return
    setBusy(true)
    try {
      const onProgress = (sent: number, total: number) => setUpload({ sent, total })
      const reply = text.trim() === '' ? '' : text
      if (await (image ? onSend(reply, image, onProgress) : onSend(reply, image))) {
        setText('')
        clearImage()
      }
    } finally {
      setBusy(false)
      setUpload(undefined)
    }
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method composes a word (Chinese, Japanese, Khmer...) confirms the word only.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing || e.keyCode === 229) return
    if (!sendsOnEnter || e.altKey || e.ctrlKey || e.metaKey) return
    e.preventDefault()
    formRef.current?.requestSubmit()
  }

  const pick = (files: FileList | null) => {
    const file = files?.[0]
    // Image files only (docs/product-rules.md#images); anything else is ignored.
    setImage(file && file.type.startsWith('image/') ? file : undefined)
    if (file && !file.type.startsWith('image/') && fileRef.current) fileRef.current.value = ''
  }

  const insert = (snippet: string) => {
    const el = textRef.current
    const start = el?.selectionStart ?? text.length
    const end = el?.selectionEnd ?? text.length
    const next = text.slice(0, start) + snippet + text.slice(end)
    setText(next)
    requestAnimationFrame(() => {
      if (!textRef.current) return
      textRef.current.focus()
      const caret = start + snippet.length
      textRef.current.setSelectionRange(caret, caret)
    })
  }

  return (
    <form
      ref={formRef}
      onSubmit={(e) => void submit(e)}
      data-testid="composer"
      className="flex min-w-0 flex-col gap-1 border-t border-gray-200 bg-white px-3 py-1 md:gap-2 md:py-3"
    >
      <ComposerNotes
        status={status}
        offline={
          !online ? (
            <Trans>You are offline: replies are kept and sent when the connection returns.</Trans>
          ) : null
        }
        watermark={image && trial ? <Trans>On a trial, images are sent with a watermark.</Trans> : null}
      />
      {/* The reply box with Send at its side, the tools under them (beside them on a phone turned sideways). */}
      <div className="flex min-w-0 flex-wrap items-end gap-x-2 gap-y-1">
        <textarea
          ref={textRef}
          data-testid="reply-text"
          dir="auto"
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            if (e.target.value.trim()) onTyping?.()
          }}
          onKeyDown={onKeyDown}
          disabled={!status.canSend}
          rows={2}
          enterKeyHint={sendsOnEnter ? 'send' : 'enter'}
          placeholder={t`Write a reply`}
          aria-label={t`Write a reply`}
          className="order-2 min-h-11 min-w-0 flex-1 basis-40 resize-none rounded-md border border-gray-300 p-2 text-sm short:h-11 short:py-2.5 md:h-20 disabled:bg-gray-100"
        />
        <button
          type="submit"
          data-testid="reply-send"
          disabled={disabled}
          className="order-3 min-h-11 shrink-0 rounded-md bg-brand-600 px-4 text-sm font-medium text-white disabled:opacity-50"
        >
          {busy ? <Trans>Sending…</Trans> : <Trans>Send</Trans>}
        </button>
        <div className="order-4 -ms-2 flex min-w-0 basis-full flex-wrap items-center gap-x-1 short:sm:order-1 short:sm:basis-auto">
          {image ? <ImagePreview file={image} onRemove={clearImage} upload={upload} /> : null}
          {/* A reply carries one image: while one is attached its Remove takes this place, so the tools stay
              one line on a phone with the keyboard open. */}
          <label
            className={`${image ? 'hidden' : 'inline-flex'} min-h-11 items-center rounded-md px-2 text-sm ${!status.canSend || !online ? 'text-gray-400' : 'cursor-pointer text-brand-700 hover:bg-brand-50'}`}
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
          {Tools ? <Tools disabled={!status.canSend} insert={insert} /> : null}
        </div>
      </div>
    </form>
  )
}
