/**
 * The list's labels: one filter per page label with how many synced conversations carry it (the chosen one is
 * the address's `label`), a "Select" that turns taps on rows into picks, and at the bottom, in reach of a
 * thumb, the selection's bar: how many are picked, their labels, and the way out.
 */
import { useEffect, useState } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { LabelsGraph, PageLabel } from '../../../core/graph/labels.ts'
import { labelCounts } from '../../../shared/labels/audience.ts'
import { readCustomersLabels } from '../../../shared/labels/store.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { useLabelsVersion } from '../../../shared/live/labels.ts'
import { useLabelActions, useLabelsByCustomer, type WithToken } from '../api/use-labels.ts'
import { LabelPicker } from './label-picker.tsx'

const chip =
  'flex min-h-11 shrink-0 items-center gap-1 rounded-full border px-3 text-sm aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700'

export interface LabelFilterProps {
  pageId: string
  graph: LabelsGraph
  withToken: WithToken
  ready: boolean
  labels: readonly PageLabel[]
  /** The customers of the synced conversations. */
  customerIds: readonly string[]
  active?: string
  onFilter(labelId: string | undefined): void
  selecting: boolean
  onSelecting(on: boolean): void
}

export function LabelFilter(props: LabelFilterProps) {
  const { t, i18n } = useLingui()
  const { pageId, graph, withToken, ready, customerIds } = props
  // The labels of every synced customer are read (those not read lately), so counts and the filter are whole;
  // again when another person of the page changed some (those are no longer counted as read lately).
  const key = customerIds.length
  const changed = useLabelsVersion(pageId)
  // Read here, not by the inbox: labels stored while they are read redraw these chips, not the whole inbox.
  const labelsOf = useLabelsByCustomer(pageId)
  useEffect(() => {
    if (!ready || key === 0) return
    const ctrl = new AbortController()
    const timer = setTimeout(
      () =>
        void withToken((token) =>
          readCustomersLabels(graph, pageId, token, customerIds, { signal: ctrl.signal }),
        ).catch(() => undefined),
      500,
    )
    return () => {
      clearTimeout(timer)
      ctrl.abort()
    }
    // Read again when the number of synced conversations changes, not on every new array.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graph, pageId, ready, key, withToken, changed])
  const counts = labelCounts(customerIds, labelsOf ?? new Map())
  return (
    // One line (the inbox's chip row scrolls it sideways): labels read after the first paint never push the list down.
    <div
      className="flex shrink-0 flex-nowrap gap-2"
      role="group"
      aria-label={t`Filter by label`}
      data-testid="label-filter"
      data-truncate
    >
      <button
        type="button"
        data-testid="list-select"
        aria-pressed={props.selecting}
        onClick={() => props.onSelecting(!props.selecting)}
        className={`${chip} border-gray-300`}
      >
        <Trans>Select</Trans>
      </button>
      {props.labels.map((label) => (
        <button
          key={label.id}
          type="button"
          data-testid="label-filter-chip"
          data-label-id={label.id}
          aria-pressed={props.active === label.id}
          onClick={() => props.onFilter(props.active === label.id ? undefined : label.id)}
          className={`${chip} border-gray-300`}
        >
          <span dir="auto" className="leading-[normal] whitespace-nowrap">
            {label.name}
          </span>
          {/* Room for four digits and their separator: counts growing as the list syncs never widen a chip
              and move the chips after it. */}
          <span className="min-w-[5ch] text-start text-gray-600 tabular-nums">
            {formatNumber(counts.get(label.id) ?? 0, i18n.locale)}
          </span>
        </button>
      ))}
    </div>
  )
}

export interface SelectionBarProps {
  pageId: string
  graph: LabelsGraph
  withToken: WithToken
  labels: readonly PageLabel[]
  /** The customers of the picked rows. */
  customerIds: readonly string[]
  onDone(): void
}

export function SelectionBar(props: SelectionBarProps) {
  const [open, setOpen] = useState(false)
  const actions = useLabelActions(props.pageId, props.graph, props.withToken)
  // The picked customers' labels alone: the chips above already watch the page's every customer.
  const labelsOf = useLabelsByCustomer(props.pageId, props.customerIds)
  const n = props.customerIds.length
  return (
    <div
      data-testid="selection-bar"
      className="border-t border-gray-200 bg-white p-2 shadow-[0_-2px_6px_rgba(0,0,0,0.08)]"
    >
      {open ? (
        <div className="max-h-[50vh] overflow-y-auto pb-2">
          <LabelPicker
            labels={props.labels}
            customerIds={props.customerIds}
            labelsOf={(id) => labelsOf?.get(id) ?? []}
            actions={actions}
          />
        </div>
      ) : null}
      <div className="flex items-center gap-2">
        <p className="min-w-0 flex-1 text-sm" data-testid="selection-count" aria-live="polite">
          <Plural value={n} one="# selected" other="# selected" />
        </p>
        <button
          type="button"
          data-testid="selection-label"
          aria-expanded={open}
          disabled={n === 0}
          onClick={() => setOpen((o) => !o)}
          className="min-h-11 min-w-11 rounded-md bg-brand-600 px-4 text-sm font-medium text-white disabled:opacity-50"
        >
          <Trans>Label</Trans>
        </button>
        <button
          type="button"
          data-testid="selection-done"
          onClick={props.onDone}
          className="min-h-11 min-w-11 rounded-md border border-gray-300 px-4 text-sm"
        >
          <Trans>Done</Trans>
        </button>
      </div>
    </div>
  )
}
