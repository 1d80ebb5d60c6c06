/**
 * The chat's labels: a button in the header showing the customer's labels; it opens the page's labels over
 * the conversation, to put one on the customer, take one off or create one on the way.
 */
import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { LabelsGraph } from '../../../core/graph/labels.ts'
import { isolate } from '../../../core/format/text.ts'
import { useCustomerLabelIds, useLabelActions, usePageLabels, type WithToken } from '../api/use-labels.ts'
import { LabelPicker } from './label-picker.tsx'

export interface CustomerLabelsProps {
  pageId: string
  customerId: string
  graph: LabelsGraph
  withToken: WithToken
  ready: boolean
}

export function CustomerLabels(props: CustomerLabelsProps) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const labels = usePageLabels(props.pageId, props.graph, props.withToken, props.ready)
  const mine = useCustomerLabelIds(props.pageId, props.customerId, props.graph, props.withToken, props.ready)
  const actions = useLabelActions(props.pageId, props.graph, props.withToken)
  const names = labels.filter((l) => mine.includes(l.id)).map((l) => l.name)
  const summary = names.map(isolate).join(', ')
  return (
    // The chip gives way to the header's name and buttons down to its tag mark: it never runs off the header.
    <div className="ms-auto flex min-w-11 shrink">
      <button
        type="button"
        data-testid="chat-labels"
        aria-expanded={open}
        aria-label={names.length ? t`Labels: ${summary}` : t`Add a label`}
        onClick={() => setOpen((o) => !o)}
        disabled={!props.ready}
        className="flex min-h-11 min-w-11 max-w-36 items-center justify-center gap-1 overflow-hidden rounded-md px-2 text-sm text-gray-700 hover:bg-gray-100 disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5 shrink-0">
          <path d="M3 3h6l8 8-6 6-8-8V3Zm3 2a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
        </svg>
        {names.length ? (
          <span
            data-testid="chat-label-names"
            data-truncate="the labels show whole in the list the button opens"
            className="min-w-0 truncate leading-[normal]"
          >
            {summary}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          data-testid="chat-labels-panel"
          className="absolute inset-x-0 top-full z-20 max-h-[60vh] overflow-y-auto border-b border-gray-200 bg-white p-3 shadow-lg"
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <p className="font-semibold">
              <Trans>Labels</Trans>
            </p>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="min-h-11 min-w-11 rounded-md px-2 text-sm text-brand-700 hover:bg-gray-100"
            >
              <Trans>Done</Trans>
            </button>
          </div>
          <LabelPicker
            labels={labels}
            customerIds={[props.customerId]}
            labelsOf={() => mine}
            actions={actions}
            onDelete={actions.remove}
          />
        </div>
      ) : null}
    </div>
  )
}
