/**
 * The page's labels for one customer or several: each label a row that puts it on every chosen customer (or,
 * when all have it, takes it off), and a new label typed and put on them. Every change goes to the network.
 */
import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { LABEL_NAME_MAX, type PageLabel } from '../../../core/graph/labels.ts'
import type { LabelActions } from '../api/use-labels.ts'

export interface LabelPickerProps {
  labels: readonly PageLabel[]
  /** Deletes a label of the page (asked once first). */
  onDelete?(labelId: string): Promise<void>
  customerIds: readonly string[]
  /** Each customer's label ids. */
  labelsOf: (customerId: string) => readonly string[]
  actions: LabelActions
}

export function LabelPicker(props: LabelPickerProps) {
  const { labels, customerIds, labelsOf, actions } = props
  const { t } = useLingui()
  const [name, setName] = useState('')
  const [deleting, setDeleting] = useState<string>()
  const create = async () => {
    if (!name.trim()) return
    await actions.create(name, customerIds)
    setName('')
  }
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="label-picker">
      {labels.length === 0 ? (
        <p className="text-gray-600">
          <Trans>This page has no labels yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col" aria-label={t`Labels`}>
          {labels.map((label) => {
            const having = customerIds.filter((id) => labelsOf(id).includes(label.id)).length
            const all = having === customerIds.length && having > 0
            return (
              <li key={label.id}>
                {deleting === label.id ? (
                  <div className="flex flex-wrap items-center gap-2 rounded-md bg-red-50 p-2" role="alert">
                    <p className="min-w-0 flex-1 leading-[normal]">
                      <Trans>
                        Delete <bdi>{label.name}</bdi>? It comes off every customer.
                      </Trans>
                    </p>
                    <button
                      type="button"
                      data-testid="label-delete-confirm"
                      disabled={actions.busy}
                      onClick={() => void props.onDelete?.(label.id).then(() => setDeleting(undefined))}
                      className="min-h-11 min-w-11 rounded-md bg-red-700 px-3 text-white"
                    >
                      <Trans>Delete</Trans>
                    </button>
                    <button
                      type="button"
                      onClick={() => setDeleting(undefined)}
                      className="min-h-11 min-w-11 rounded-md border border-gray-300 px-3"
                    >
                      <Trans>Keep</Trans>
                    </button>
                  </div>
                ) : (
                  <div className="flex items-center">
                    <label className="flex min-h-11 min-w-0 flex-1 items-center gap-3 rounded-md px-2 hover:bg-gray-50">
                      <input
                        type="checkbox"
                        className="size-5 shrink-0"
                        data-testid="label-option"
                        data-label-id={label.id}
                        checked={all}
                        ref={(el) => {
                          if (el) el.indeterminate = having > 0 && !all
                        }}
                        disabled={actions.busy || customerIds.length === 0}
                        onChange={() => void actions.toggle(label.id, customerIds, !all)}
                      />
                      <span dir="auto" className="min-w-0 flex-1 break-words leading-[normal]">
                        {label.name}
                      </span>
                    </label>
                    {props.onDelete ? (
                      <button
                        type="button"
                        data-testid="label-delete"
                        aria-label={t`Delete the label ${label.name}`}
                        onClick={() => setDeleting(label.id)}
                        className="grid size-11 shrink-0 place-items-center rounded-md text-gray-500 hover:bg-gray-100"
                      >
                        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5">
                          <path d="M8 2h4l1 2h4v2H3V4h4l1-2Zm-3 5h10l-1 11H6L5 7Z" />
                        </svg>
                      </button>
                    ) : null}
                  </div>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <input
          type="text"
          dir="auto"
          data-testid="label-new-name"
          value={name}
          maxLength={LABEL_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          placeholder={t`New label`}
          aria-label={t`New label`}
          className="min-h-11 min-w-0 flex-1 rounded-md border border-gray-300 px-3"
        />
        <button
          type="submit"
          data-testid="label-create"
          disabled={actions.busy || !name.trim() || customerIds.length === 0}
          className="min-h-11 min-w-11 shrink-0 rounded-md bg-brand-600 px-3 font-medium text-white disabled:opacity-50"
        >
          <Trans>Add</Trans>
        </button>
      </form>
    </div>
  )
}
