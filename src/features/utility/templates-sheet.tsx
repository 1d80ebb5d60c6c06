/**
 * The page's utility templates: each with its category and approval state (read again live when a review
 * ends), a rejected one with why (the class in the owner's language, the network's reason beside it);
 * Meta's library searched and copied in; a template written, edited or deleted.
 */
import { SheetFrame } from '../../shared/ui/sheet-frame.tsx'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { isolate } from '../../core/format/index.ts'
import { failureKind } from '../../core/graph/delivery.ts'
import { graphErrorText } from '../../core/graph/error-words.ts'
import {
  bodyProblem,
  placeholderCount,
  TEMPLATE_BODY_MAX,
  TEMPLATE_LANGUAGES,
  TEMPLATE_NAME_PATTERN,
  templateLanguageFor,
} from '../../core/graph/template.ts'
import { templateBody, type PageTemplate } from '../../core/graph/utility.ts'
import { buttonDanger, buttonPrimary, buttonSecondary, buttonLink } from '../../shared/ui/button-styles.ts'
import { closeModal, openModal, useModalOpen } from '../../shared/ui/modal-stack.ts'
import {
  askUtilityPermission,
  cloneName,
  hasUtilityPermission,
  rejectionText,
  templatesKey,
  useLibrary,
  usePageTemplates,
  useUtilityClient,
  type WithToken,
} from '../../shared/utility/api.ts'
import { LibrarySearch, UpdatesNeedPermission } from '../../shared/utility/template-fill.tsx'

/** The entry (sidebar or header) and the sheet it opens. */
export function TemplatesEntry(props: { pageId: string; withToken: WithToken; ready: boolean }) {
  const open = useModalOpen('templates')
  if (!props.ready) return null
  return (
    <>
      <button
        type="button"
        data-testid="templates-entry"
        onClick={() => openModal('templates')}
        className={buttonLink}
      >
        <Trans>Templates</Trans>
      </button>
      {open ? <TemplatesSheet pageId={props.pageId} withToken={props.withToken} /> : null}
    </>
  )
}

interface Draft {
  /** The template edited, or undefined for a new one. */
  id?: string
  name: string
  language: string
  body: string
}

function TemplatesSheet({ pageId, withToken }: { pageId: string; withToken: WithToken }) {
  const { i18n, t } = useLingui()
  const client = useUtilityClient()
  const queryClient = useQueryClient()
  const [allowed, setAllowed] = useState(hasUtilityPermission)
  const [search, setSearch] = useState('')
  const [draft, setDraft] = useState<Draft>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const language = templateLanguageFor(i18n.locale)
  const templates = usePageTemplates(pageId, withToken, allowed)
  const library = useLibrary(search, language, withToken, allowed && search.trim().length > 0)
  const close = () => closeModal('templates')
  const reload = () => queryClient.invalidateQueries({ queryKey: templatesKey(pageId) })

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await work()
      await reload()
      return true
    } catch (err) {
      const detail = err instanceof Error && err.message ? t`Facebook says: ${isolate(err.message)}` : ''
      setError(`${graphErrorText(failureKind(err))} ${detail}`.trim())
      return false
    } finally {
      setBusy(false)
    }
  }
  const allow = async () => {
    const granted = await askUtilityPermission().catch(() => false)
    setAllowed(granted)
    if (!granted) setError(t`Without this permission Facebook does not let the page send updates.`)
  }
  const taken = (templates.data ?? []).map((tpl) => tpl.name)
  const save = async (d: Draft) => {
    // Sample values for the review: the network asks one per placeholder.
    const examples = Array.from({ length: placeholderCount(d.body) }, (_, i) => t`value ${i + 1}`)
    const ok = await run(() =>
      withToken<unknown>((token) =>
        d.id
          ? client.edit(d.id, token, { body: d.body, examples })
          : client.create(pageId, token, { name: d.name, language: d.language, body: d.body, examples }),
      ),
    )
    if (ok) setDraft(undefined)
  }

  return (
    <SheetFrame testId="templates-sheet" wide title={<Trans>Update templates</Trans>} onClose={close}>
      {!allowed ? (
        <UpdatesNeedPermission />
      ) : draft ? (
        <DraftForm draft={draft} taken={taken} busy={busy} onChange={setDraft} onSave={save} />
      ) : (
        <>
          <ul className="flex flex-col gap-2" data-testid="templates-list">
            {(templates.data ?? []).map((tpl) => (
              <TemplateRow
                key={tpl.id}
                template={tpl}
                busy={busy}
                onEdit={() =>
                  setDraft({
                    id: tpl.id,
                    name: tpl.name,
                    language: tpl.language,
                    body: templateBody(tpl),
                  })
                }
                onDelete={() => void run(() => withToken((token) => client.remove(pageId, token, tpl.name)))}
              />
            ))}
          </ul>
          {templates.data?.length === 0 ? (
            <p className="text-slate-500">
              <Trans>The page has no templates yet.</Trans>
            </p>
          ) : null}
          <button
            type="button"
            data-testid="template-new"
            className={buttonSecondary}
            onClick={() => setDraft({ name: '', language, body: '' })}
          >
            <Trans>Write a template</Trans>
          </button>
          <LibrarySearch testId="templates-search" value={search} onChange={setSearch} />
          <ul className="flex flex-col gap-2">
            {(library.data ?? []).map((lib) => (
              <li key={lib.id} className="flex items-center gap-2 rounded-lg border border-slate-200 p-2">
                <span dir="auto" className="min-w-0 flex-1 break-words">
                  {lib.body}
                </span>
                <button
                  type="button"
                  data-testid={`clone-${lib.name}`}
                  className={buttonSecondary}
                  disabled={busy}
                  onClick={() =>
                    void run(() =>
                      withToken((token) =>
                        client.clone(pageId, token, {
                          name: cloneName(lib.name, taken),
                          language: lib.language,
                          libraryName: lib.name,
                        }),
                      ),
                    )
                  }
                >
                  <Trans>Copy</Trans>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {error ? (
        <p role="alert" data-testid="templates-error" className="text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={draft ? () => setDraft(undefined) : close}>
          {draft ? <Trans>Back</Trans> : <Trans>Close</Trans>}
        </button>
        {!allowed ? (
          <button type="button" className={buttonPrimary} onClick={() => void allow()}>
            <Trans>Continue</Trans>
          </button>
        ) : null}
      </div>
    </SheetFrame>
  )
}

function TemplateRow(props: { template: PageTemplate; busy: boolean; onEdit(): void; onDelete(): void }) {
  const tpl = props.template
  const status = tpl.status
  return (
    <li
      className="flex flex-col gap-1 rounded-lg border border-slate-200 p-2"
      data-testid={`template-${tpl.name}`}
    >
      <span className="flex flex-wrap items-center gap-2">
        <bdi className="font-medium text-slate-900">{tpl.name}</bdi>
        <span className="text-xs text-slate-500">
          <Trans>Utility</Trans> · <bdi>{tpl.language}</bdi>
        </span>
        <span
          data-testid="template-status"
          data-status={status}
          className={`rounded px-1.5 text-xs ${status === 'APPROVED' ? 'bg-emerald-100 text-emerald-900' : status === 'REJECTED' ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900'}`}
        >
          {status === 'APPROVED' ? (
            <Trans>Approved</Trans>
          ) : status === 'REJECTED' ? (
            <Trans>Rejected</Trans>
          ) : (
            <Trans>In review</Trans>
          )}
        </span>
      </span>
      <span dir="auto" className="break-words text-slate-700">
        {templateBody(tpl)}
      </span>
      {status === 'REJECTED' ? (
        <p role="alert" data-testid="template-rejection" className="text-red-800">
          {rejectionText(tpl.rejected_reason)}{' '}
          <Trans>
            Facebook says: <bdi>{tpl.rejected_reason ?? ''}</bdi>
          </Trans>
        </p>
      ) : null}
      <span className="flex flex-wrap gap-2">
        {tpl.library_template_name ? null : (
          <button type="button" className={buttonSecondary} disabled={props.busy} onClick={props.onEdit}>
            <Trans>Edit</Trans>
          </button>
        )}
        <button type="button" className={buttonDanger} disabled={props.busy} onClick={props.onDelete}>
          <Trans>Delete</Trans>
        </button>
      </span>
    </li>
  )
}

function DraftForm(props: {
  draft: Draft
  taken: string[]
  busy: boolean
  onChange(d: Draft): void
  onSave(d: Draft): Promise<void>
}) {
  const d = props.draft
  const nameOk = !!d.id || (TEMPLATE_NAME_PATTERN.test(d.name) && !props.taken.includes(d.name))
  const problem = bodyProblem(d.body)
  const marks = '{{1}}, {{2}}…'
  return (
    <div className="flex flex-col gap-3">
      {d.id ? null : (
        <>
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-800">
              <Trans>Name (lowercase letters, digits and _)</Trans>
            </span>
            <input
              data-testid="template-name"
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2"
              value={d.name}
              onChange={(e) => props.onChange({ ...d, name: e.target.value.toLowerCase() })}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-800">
              <Trans>Language</Trans>
            </span>
            <select
              data-testid="template-language"
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2"
              value={d.language}
              onChange={(e) => props.onChange({ ...d, language: e.target.value })}
            >
              {TEMPLATE_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-800">
          <Trans>Message, with {marks} where the details go</Trans>
        </span>
        <textarea
          data-testid="template-body"
          dir="auto"
          rows={4}
          maxLength={TEMPLATE_BODY_MAX}
          className="rounded-md border border-slate-300 px-3 py-2"
          value={d.body}
          onChange={(e) => props.onChange({ ...d, body: e.target.value })}
        />
      </label>
      {problem === 'placeholders' ? (
        <p role="alert" className="text-red-700">
          <Trans>Number the placeholders {marks} without a gap.</Trans>
        </p>
      ) : null}
      <button
        type="button"
        data-testid="template-save"
        className={buttonPrimary}
        disabled={props.busy || !nameOk || !!problem}
        onClick={() => void props.onSave(d)}
      >
        <Trans>Send for review</Trans>
      </button>
    </div>
  )
}
