/**
 * A template's placeholders as fields, and the message they make: one field per `{{n}}` (the sample value as
 * its hint) and a preview of the filled body, as the customer will read it.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { fillBody, placeholderCount, TEMPLATE_PARAM_MAX } from '../graph/template.ts'

export function TemplateFill(props: {
  body: string
  examples: readonly string[]
  params: string[]
  onParams(params: string[]): void
  /** What the preview shows for a value (the wizard shows `{first name}` as it is). */
  previewParams?: string[]
}) {
  const { t } = useLingui()
  const count = placeholderCount(props.body)
  const set = (i: number, v: string) => props.onParams(props.params.map((p, j) => (j === i ? v : p)))
  return (
    <div className="flex flex-col gap-3">
      {Array.from({ length: count }, (_, i) => {
        const n = i + 1
        const example = props.examples[i] ?? ''
        return (
          <label key={n} className="flex flex-col gap-1">
            <span className="font-medium text-slate-800">
              <Trans>Placeholder {n}</Trans>
              {example ? (
                <span className="ms-1 font-normal text-slate-500">
                  (<Trans>for example</Trans> <bdi>{example}</bdi>)
                </span>
              ) : null}
            </span>
            <input
              type="text"
              dir="auto"
              data-testid={`template-param-${n}`}
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2"
              value={props.params[i] ?? ''}
              maxLength={TEMPLATE_PARAM_MAX}
              aria-label={t`Placeholder ${n}`}
              onChange={(e) => set(i, e.target.value)}
            />
          </label>
        )
      })}
      <div>
        <p className="mb-1 font-medium text-slate-800">
          <Trans>Preview</Trans>
        </p>
        <p
          dir="auto"
          data-testid="template-preview"
          className="rounded-2xl bg-brand-600 px-3 py-2 whitespace-pre-wrap break-words text-white"
        >
          {fillBody(
            props.body,
            (props.previewParams ?? props.params).map((p) => p.trim() || '…'),
          )}
        </p>
      </div>
    </div>
  )
}

/** Every placeholder has a value. */
export function paramsComplete(body: string, params: readonly string[]): boolean {
  const count = placeholderCount(body)
  return params.length >= count && params.slice(0, count).every((p) => p.trim().length > 0)
}

/** The search field of Meta's template library. */
export function LibrarySearch(props: { testId: string; value: string; onChange(v: string): void }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium text-slate-800">
        <Trans>Search Meta's templates</Trans>
      </span>
      <input
        type="search"
        dir="auto"
        data-testid={props.testId}
        className="min-h-11 rounded-md border border-slate-300 px-3 py-2"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  )
}
