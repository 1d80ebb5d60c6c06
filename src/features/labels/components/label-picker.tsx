/**
 * The page's labels for one customer or several: each label a row that puts it on every chosen customer (or,
 * when all have it, takes it off), and a new label typed and put on them. Every change goes to the network.
 */
import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { LABEL_NAME_MAX, type PageLabel } from '../../../shared/graph/labels.ts'
import type { LabelActions } from '../api/use-labels.ts'

export interface LabelPickerProps {
  labels: readonly PageLabel[]
  customerIds: readonly string[]
  /** Each customer's label ids. */
  labelsOf: (customerId: string) => readonly string[]
  actions: LabelActions
}

export function LabelPicker({ labels, customerIds, labelsOf, actions }: LabelPickerProps) {
  const { t } = useLingui()
  const [name, setName] = useState('')
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
                <label className="flex min-h-11 items-center gap-3 rounded-md px-2 hover:bg-gray-50">
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
