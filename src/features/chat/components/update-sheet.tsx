/**
 * "Send an update": a utility message to the customer of this chat outside the 24-hour window (an order
 * ready, an appointment or an event reminder, an account change). The owner picks one of the page's
 * approved templates, or one of Meta's (copied into the page's library first), fills its placeholders (the
 * customer's first name is filled in), sees the message as the customer will, and sends it.
 */
import { SheetFrame } from '../../../shared/ui/sheet-frame.tsx'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { isolate } from '../../../core/format/index.ts'
import { failureKind } from '../../../core/graph/delivery.ts'
import { graphErrorText } from '../../../core/graph/error-words.ts'
import { firstName } from '../../../core/graph/delivery.ts'
import { paramsComplete, placeholderCount, templateLanguageFor } from '../../../core/graph/template.ts'
import type { GraphClient } from '../../../core/graph/types.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { closeModal } from '../../../shared/ui/modal-stack.ts'
import {
  askUtilityPermission,
  cloneName,
  hasUtilityPermission,
  templatesKey,
  useLibrary,
  usePageTemplates,
  useUtilityClient,
  type WithToken,
} from '../../../shared/utility/api.ts'
import {
  ApprovedTemplates,
  LibrarySearch,
  TemplateFill,
  UpdatesNeedPermission,
  type TemplateChoice,
} from '../../../shared/utility/template-fill.tsx'

export interface UpdateSheetProps {
  pageId: string
  customerId: string
  customerName: string
  graph: GraphClient
  withToken: WithToken
  /** The message reached the customer: the chat reads its history again. */
  onSent(): void
}

export function UpdateSheet(props: UpdateSheetProps) {
  const { i18n, t } = useLingui()
  const client = useUtilityClient()
  const queryClient = useQueryClient()
  const [allowed, setAllowed] = useState(hasUtilityPermission)
  const [search, setSearch] = useState('')
  const [chosen, setChosen] = useState<TemplateChoice>()
  const [params, setParams] = useState<string[]>([])
  const [phase, setPhase] = useState<'ready' | 'busy' | 'sent'>('ready')
  const [error, setError] = useState<string>()
  const language = templateLanguageFor(i18n.locale)
  const templates = usePageTemplates(props.pageId, props.withToken, allowed)
  const library = useLibrary(search, language, props.withToken, allowed && !chosen)
  const close = () => closeModal('send-update')

  const choose = (c: TemplateChoice) => {
    setChosen(c)
    // What is known is filled in: the greeting's name; the rest the owner types.
    const count = placeholderCount(c.body)
    setParams(Array.from({ length: count }, (_, i) => (i === 0 ? firstName(props.customerName) : '')))
    setError(undefined)
  }
  const refused = (err: unknown, fallback: string) => {
    const detail = err instanceof Error && err.message ? t`Facebook says: ${isolate(err.message)}` : ''
    setError(`${err ? graphErrorText(failureKind(err)) : fallback} ${detail}`.trim())
    setPhase('ready')
  }
  const allow = async () => {
    setPhase('busy')
    const granted = await askUtilityPermission().catch(() => false)
    setAllowed(granted)
    setPhase('ready')
    if (!granted) setError(t`Without this permission Facebook does not let the page send updates.`)
  }
  const takeLibraryTemplate = async (name: string, body: string, examples: string[]) => {
    setPhase('busy')
    try {
      const taken = (templates.data ?? []).map((tpl) => tpl.name)
      const copy = cloneName(name, taken)
      await props.withToken((token) =>
        client.clone(props.pageId, token, { name: copy, language, libraryName: name }),
      )
      void queryClient.invalidateQueries({ queryKey: templatesKey(props.pageId) })
      choose({ name: copy, language, body, examples })
      setPhase('ready')
    } catch (err) {
      refused(err, '')
    }
  }
  const send = async () => {
    if (!chosen) return
    setPhase('busy')
    setError(undefined)
    try {
      await props.withToken((token) =>
        props.graph.send(props.pageId, token, {
          recipientId: props.customerId,
          messagingType: 'UTILITY',
          utility: { name: chosen.name, language: chosen.language, params: params.map((p) => p.trim()) },
        }),
      )
      setPhase('sent')
      props.onSent()
    } catch (err) {
      refused(err, '')
    }
  }
  const name = isolate(props.customerName)

  return (
    <SheetFrame testId="update-sheet" title={<Trans>Send an update to {name}</Trans>} onClose={close}>
      {phase === 'sent' ? (
        <p role="status" data-testid="update-sent" className="text-emerald-900">
          <Trans>Update sent.</Trans>
        </p>
      ) : !allowed ? (
        <UpdatesNeedPermission />
      ) : chosen ? (
        <TemplateFill body={chosen.body} examples={chosen.examples} params={params} onParams={setParams} />
      ) : (
        <>
          <p>
            <Trans>
              Updates about an order, an appointment, an event or an account can reach a customer after 24
              hours. Pick a template:
            </Trans>
          </p>
          <ApprovedTemplates templates={templates.data} onPick={choose} testId="update-page-templates" />
          <LibrarySearch testId="update-search" value={search} onChange={setSearch} />
          <ul className="flex flex-col gap-2" data-testid="update-library">
            {(library.data ?? []).map((lib) => (
              <li key={lib.id}>
                <button
                  type="button"
                  data-testid={`library-${lib.name}`}
                  disabled={phase === 'busy'}
                  onClick={() => void takeLibraryTemplate(lib.name, lib.body, lib.body_params ?? [])}
                  className="flex min-h-11 w-full flex-col items-start rounded-lg border border-slate-200 px-3 py-2 text-start hover:bg-slate-50"
                >
                  <span className="font-medium text-slate-900">
                    <bdi>{lib.name}</bdi>
                  </span>
                  <span dir="auto" className="text-slate-600">
                    {lib.body}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {library.isLoading || templates.isLoading ? (
            <p className="text-slate-500">
              <Trans>Loading templates…</Trans>
            </p>
          ) : null}
        </>
      )}
      {error ? (
        <p role="alert" data-testid="update-error" className="text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button
          type="button"
          className={buttonSecondary}
          onClick={chosen && phase !== 'sent' ? () => setChosen(undefined) : close}
        >
          {phase === 'sent' ? <Trans>Close</Trans> : chosen ? <Trans>Back</Trans> : <Trans>Cancel</Trans>}
        </button>
        {phase === 'sent' ? null : !allowed ? (
          <button
            type="button"
            data-testid="update-allow"
            className={buttonPrimary}
            disabled={phase === 'busy'}
            onClick={() => void allow()}
          >
            <Trans>Continue</Trans>
          </button>
        ) : chosen ? (
          <button
            type="button"
            data-testid="update-send"
            className={buttonPrimary}
            disabled={phase === 'busy' || !paramsComplete(chosen.body, params)}
            onClick={() => void send()}
          >
            {phase === 'busy' ? <Trans>Sending…</Trans> : <Trans>Send update</Trans>}
          </button>
        ) : null}
      </div>
    </SheetFrame>
  )
}
