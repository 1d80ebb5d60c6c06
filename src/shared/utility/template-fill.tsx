/**
 * A template's placeholders as fields, and the message they make: one field per `{{n}}` (the sample value as
 * its hint) and a preview of the filled body, as the customer will read it.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { fillBody, placeholderCount, TEMPLATE_PARAM_MAX } from '../../core/graph/template.ts'
import { templateBody, type PageTemplate } from '../../core/graph/utility.ts'

/** A template the owner picked: its name and language in the page's library, its body and sample values. */
export interface TemplateChoice {
  name: string
  language: string
  body: string
  examples: string[]
}

/** A page template as a choice: its body and the sample value of each placeholder. */
export function pageChoice(tpl: PageTemplate): TemplateChoice {
  const body = templateBody(tpl)
  const examples = tpl.components.find((c) => c.type.toUpperCase() === 'BODY')?.example?.body_text?.[0] ?? []
  return { name: tpl.name, language: tpl.language, body, examples }
}

/** The page's approved templates, each a button with its name and body (nothing while there is none). */
export function ApprovedTemplates(props: {
  templates: readonly PageTemplate[] | undefined
  onPick(choice: TemplateChoice): void
  testId: string
}) {
  const approved = (props.templates ?? []).filter((tpl) => tpl.status === 'APPROVED')
  if (!approved.length) return null
  return (
    <ul className="flex flex-col gap-2" data-testid={props.testId}>
      {approved.map((tpl) => (
        <li key={tpl.id}>
          <button
            type="button"
            data-testid={`page-template-${tpl.name}`}
            onClick={() => props.onPick(pageChoice(tpl))}
            className="flex min-h-11 w-full flex-col items-start rounded-lg border border-brand-200 px-3 py-2 text-start hover:bg-brand-50"
          >
            <span className="font-medium text-slate-900">
              <bdi>{tpl.name}</bdi>
            </span>
            <span dir="auto" className="text-slate-600">
              {templateBody(tpl)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

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

/** Why the page is asked for the permission to send updates, before it has it. */
export function UpdatesNeedPermission() {
  return (
    <p>
      <Trans>
        Updates about an order, an appointment, an event or an account can reach a customer after 24 hours.
        Facebook asks you to allow the page to send them first.
      </Trans>
    </p>
  )
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
