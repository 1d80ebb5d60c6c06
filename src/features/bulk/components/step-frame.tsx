/** A wizard step whose header opens and closes it. */
import type { ReactNode } from 'react'

export function StepFrame(props: {
  no: number
  title: ReactNode
  open: boolean
  enabled: boolean
  onToggle(): void
  children: ReactNode
}) {
  const id = `bulk-step-${props.no}`
  return (
    <section className="rounded-lg border border-slate-200 bg-white" data-testid={id}>
      <h3>
        <button
          type="button"
          className="flex min-h-11 w-full items-center gap-3 px-4 py-3 text-start text-sm font-semibold text-slate-800 disabled:text-slate-400"
          aria-expanded={props.open}
          aria-controls={`${id}-body`}
          disabled={!props.enabled && !props.open}
          onClick={props.onToggle}
        >
          <span className="flex h-6 w-6 items-center justify-center rounded-full bg-brand-100 text-xs text-brand-700">
            {props.no}
          </span>
          <span className="flex-1">{props.title}</span>
          <span aria-hidden="true">{props.open ? '−' : '+'}</span>
        </button>
      </h3>
      {props.open ? (
        <div id={`${id}-body`} className="border-t border-slate-100 px-4 py-3">
          {props.children}
        </div>
      ) : null}
    </section>
  )
}
