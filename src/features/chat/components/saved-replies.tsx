/**
 * Saved replies beside the reply box: a button opens the picker (a sheet from the bottom on a phone, a popover
 * over the reply box on a wide screen) with the user's saved replies, a search, and their management (add,
 * edit, delete after a confirmation). Picking one inserts its text into the reply box. The open sheet is an entry
 * of the modal stack (`?modal=saved-replies` in the address), so the phone's Back closes it.
 */
import { type FormEvent, useId, useMemo, useRef, useState } from 'react'
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import {
  SAVED_REPLY_TEXT_MAX,
  SAVED_REPLY_TITLE_MAX,
  type SavedReply,
} from '../../../core/contracts/saved-replies.ts'
import { buttonDanger, buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { closeModal, openModal, useModalOpen } from '../../../shared/ui/modal-stack.ts'
import { SIDE_BY_SIDE, useMediaQuery } from '../../../shared/ui/use-media-query.ts'
import { savedRepliesQueryOptions, useSavedReplyMutations } from '../api/saved-replies.ts'

export interface SavedRepliesButtonProps {
  disabled: boolean
  onPick: (text: string) => void
}

export function SavedRepliesButton({ disabled, onPick }: SavedRepliesButtonProps) {
  const open = useModalOpen('saved-replies')
  const setOpen = (next: boolean) => (next ? openModal('saved-replies') : closeModal('saved-replies'))
  const wide = useMediaQuery(SIDE_BY_SIDE)
  const { t } = useLingui()
  const pick = (text: string) => {
    onPick(text)
    setOpen(false)
  }
  return (
    <div className="relative">
      <button
        type="button"
        data-testid="saved-replies-open"
        disabled={disabled}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex min-h-11 items-center rounded-md px-2 text-sm text-brand-700 hover:bg-brand-50 disabled:text-gray-400"
      >
        <Trans>Saved replies</Trans>
      </button>
      {open ? (
        <Dialog open onClose={() => setOpen(false)} className="relative z-40">
          {wide ? null : <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />}
          <div
            className={
              wide
                ? 'pointer-events-none fixed inset-0 flex items-end justify-end p-4 pb-28'
                : 'fixed inset-0 flex items-end'
            }
          >
            <DialogPanel
              data-testid="saved-replies"
              className={`pointer-events-auto flex max-h-[80dvh] w-full flex-col bg-white shadow-xl ${
                wide ? 'max-w-md rounded-xl border border-gray-200' : 'rounded-t-2xl'
              }`}
            >
              <div className="flex items-center justify-between gap-2 border-b border-gray-200 px-4 py-3">
                <DialogTitle className="text-base font-semibold text-slate-900">
                  <Trans>Saved replies</Trans>
                </DialogTitle>
                <button
                  type="button"
                  onClick={() => setOpen(false)}
                  aria-label={t`Close`}
                  className="-me-2 grid size-11 place-items-center rounded-md text-slate-500 hover:bg-slate-100"
                >
                  ×
                </button>
              </div>
              <SavedRepliesPanel onPick={pick} />
            </DialogPanel>
          </div>
        </Dialog>
      ) : null}
    </div>
  )
}

type Mode = { kind: 'list' } | { kind: 'edit'; reply?: SavedReply } | { kind: 'delete'; reply: SavedReply }

export function SavedRepliesPanel({ onPick }: { onPick: (text: string) => void }) {
  const { t, i18n } = useLingui()
  const replies = useQuery(savedRepliesQueryOptions())
  const [search, setSearch] = useState('')
  const [mode, setMode] = useState<Mode>({ kind: 'list' })
  const { remove } = useSavedReplyMutations()
  const shown = useMemo(() => {
    const q = search.trim().toLocaleLowerCase(i18n.locale)
    const all = replies.data ?? []
    if (!q) return all
    return all.filter((r) => `${r.title}\n${r.text}`.toLocaleLowerCase(i18n.locale).includes(q))
  }, [replies.data, search, i18n.locale])

  if (mode.kind === 'edit')
    return <SavedReplyForm reply={mode.reply} onDone={() => setMode({ kind: 'list' })} />

  if (mode.kind === 'delete')
    return (
      <div data-testid="saved-reply-delete-confirm" className="space-y-4 p-4 text-sm text-slate-700">
        <p>
          <Trans>Delete this saved reply?</Trans>
        </p>
        <p dir="auto" className="line-clamp-3 whitespace-pre-wrap rounded-md bg-gray-50 p-2">
          {mode.reply.title || mode.reply.text}
        </p>
        <div className="flex justify-end gap-2">
          <button type="button" className={buttonSecondary} onClick={() => setMode({ kind: 'list' })}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="button"
            data-testid="saved-reply-delete-yes"
            className={buttonDanger}
            disabled={remove.isPending}
            onClick={() => remove.mutate(mode.reply.id, { onSuccess: () => setMode({ kind: 'list' }) })}
          >
            <Trans>Delete</Trans>
          </button>
        </div>
      </div>
    )

  return (
    <div className="flex min-h-0 flex-col">
      <div className="flex gap-2 p-3">
        <input
          type="search"
          data-testid="saved-replies-search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t`Search saved replies`}
          aria-label={t`Search saved replies`}
          className="min-w-0 flex-1 rounded-md border border-gray-300 px-2 py-1.5 text-sm"
        />
        <button
          type="button"
          data-testid="saved-reply-add"
          className={buttonSecondary}
          onClick={() => setMode({ kind: 'edit' })}
        >
          <Trans>New</Trans>
        </button>
      </div>
      <ul data-testid="saved-replies-list" className="min-h-0 flex-1 overflow-y-auto px-3 pb-3">
        {replies.isPending ? (
          <li className="py-4 text-center text-sm text-gray-500">
            <Trans>Loading...</Trans>
          </li>
        ) : replies.isError ? (
          <li className="py-4 text-center text-sm text-gray-500">
            <Trans>Saved replies could not be loaded.</Trans>
          </li>
        ) : shown.length === 0 ? (
          <li data-testid="saved-replies-empty" className="py-4 text-center text-sm text-gray-500">
            {search.trim() ? (
              <Trans>No saved reply matches.</Trans>
            ) : (
              <Trans>No saved replies yet. Save the answers you give often.</Trans>
            )}
          </li>
        ) : (
          shown.map((r) => (
            <li
              key={r.id}
              data-testid="saved-reply"
              className="flex items-start gap-2 border-b border-gray-100 py-2 last:border-b-0"
            >
              <button
                type="button"
                data-testid="saved-reply-pick"
                onClick={() => onPick(r.text)}
                className="min-h-11 min-w-0 flex-1 rounded-md p-1 text-start hover:bg-gray-50"
              >
                {r.title ? (
                  <span dir="auto" className="block truncate text-sm font-medium text-slate-900">
                    {r.title}
                  </span>
                ) : null}
                <span
                  dir="auto"
                  className="line-clamp-2 whitespace-pre-wrap break-words text-sm text-gray-600"
                >
                  {r.text}
                </span>
              </button>
              <button
                type="button"
                data-testid="saved-reply-edit"
                onClick={() => setMode({ kind: 'edit', reply: r })}
                className="min-h-11 shrink-0 rounded-md px-3 text-sm text-brand-700 hover:bg-gray-50"
              >
                <Trans>Edit</Trans>
              </button>
              <button
                type="button"
                data-testid="saved-reply-delete"
                onClick={() => setMode({ kind: 'delete', reply: r })}
                className="min-h-11 shrink-0 rounded-md px-3 text-sm text-red-700 hover:bg-gray-50"
              >
                <Trans>Delete</Trans>
              </button>
            </li>
          ))
        )}
      </ul>
    </div>
  )
}

function SavedReplyForm({ reply, onDone }: { reply?: SavedReply; onDone: () => void }) {
  const { t } = useLingui()
  const [title, setTitle] = useState(reply?.title ?? '')
  const [text, setText] = useState(reply?.text ?? '')
  const { save } = useSavedReplyMutations()
  const titleId = useId()
  const textId = useId()
  const textRef = useRef<HTMLTextAreaElement>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (text.trim() === '') {
      textRef.current?.focus()
      return
    }
    save.mutate({ id: reply?.id, title, text }, { onSuccess: onDone })
  }
  return (
    <form onSubmit={submit} data-testid="saved-reply-form" className="space-y-3 p-4 text-sm">
      <div className="space-y-1">
        <label htmlFor={titleId} className="block font-medium text-slate-800">
          <Trans>Title (optional)</Trans>
        </label>
        <input
          id={titleId}
          data-testid="saved-reply-title"
          dir="auto"
          value={title}
          maxLength={SAVED_REPLY_TITLE_MAX}
          onChange={(e) => setTitle(e.target.value)}
          className="w-full rounded-md border border-gray-300 px-2 py-1.5"
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={textId} className="block font-medium text-slate-800">
          <Trans>Text</Trans>
        </label>
        <textarea
          id={textId}
          ref={textRef}
          data-testid="saved-reply-text"
          dir="auto"
          value={text}
          required
          rows={4}
          maxLength={SAVED_REPLY_TEXT_MAX}
          onChange={(e) => setText(e.target.value)}
          placeholder={t`The reply to insert`}
          className="w-full resize-y rounded-md border border-gray-300 p-2"
        />
      </div>
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={onDone}>
          <Trans>Cancel</Trans>
        </button>
        <button
          type="submit"
          data-testid="saved-reply-save"
          className={buttonPrimary}
          disabled={save.isPending || text.trim() === ''}
        >
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  )
}
