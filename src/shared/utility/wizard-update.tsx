/**
 * The bulk wizard's update from a template (step 2, loaded when the owner chooses it): one of the page's
 * approved utility templates, its placeholders typed once for everyone while a `{first name}` one is filled
 * per recipient, the message as the first recipient will read it, and who can get it: a utility message
 * reaches customers outside the 24-hour window too (docs/utility-messages.md).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { formatNumber } from '../../core/format/numbers.ts'
import { FIRST_NAME_TOKEN, personalText } from '../../core/graph/delivery.ts'
import { placeholderCount, type UtilityContent } from '../../core/graph/template.ts'
import { buttonPrimary, buttonSecondary } from '../ui/button-styles.ts'
import { askUtilityPermission, hasUtilityPermission, usePageTemplates, type WithToken } from './api.ts'
import {
  ApprovedTemplates,
  pageChoice,
  TemplateFill,
  UpdatesNeedPermission,
  type TemplateChoice,
} from './template-fill.tsx'

export interface WizardUpdateProps {
  pageId: string
  withToken: WithToken
  value: UtilityContent | undefined
  onChange(value: UtilityContent | undefined): void
  /** The first recipient's name (the preview fills `{first name}` with it) and the word without a name. */
  first: string | undefined
  fallback: string
  /** The chosen customers inside the window and outside it: a template's update reaches both. */
  reach: { inside: number; outside: number }
}

/** A template's values as the wizard starts them: the first placeholder takes each customer's first name. */
export function startParams(body: string): string[] {
  return Array.from({ length: placeholderCount(body) }, (_, i) => (i === 0 ? FIRST_NAME_TOKEN : ''))
}

export function WizardUpdate(props: WizardUpdateProps) {
  const { i18n } = useLingui()
  const [allowed, setAllowed] = useState(hasUtilityPermission)
  const [asking, setAsking] = useState(false)
  const [refused, setRefused] = useState(false)
  const templates = usePageTemplates(props.pageId, props.withToken, allowed)
  const n = (v: number) => formatNumber(v, i18n.locale)
  const total = props.reach.inside + props.reach.outside
  const [inside, outside] = [n(props.reach.inside), n(props.reach.outside)]
  const value = props.value
  // The sample values of the template chosen, as the page's library gives them.
  const known =
    value && templates.data?.find((tpl) => tpl.name === value.name && tpl.language === value.language)
  const examples = known ? pageChoice(known).examples : []
  const pick = (c: TemplateChoice) =>
    props.onChange({ name: c.name, language: c.language, body: c.body, params: startParams(c.body) })
  const allow = async () => {
    setAsking(true)
    const granted = await askUtilityPermission().catch(() => false)
    setAllowed(granted)
    setRefused(!granted)
    setAsking(false)
  }
  const none = templates.isSuccess && !templates.data.some((tpl) => tpl.status === 'APPROVED')

  return (
    <div className="flex flex-col gap-3 leading-[normal]" data-testid="bulk-utility">
      <p className="text-slate-700" data-testid="bulk-utility-reach">
        <Plural
          value={total}
          one={`# chosen customer can get this update: ${inside} who wrote in the last 23 hours and ${outside} outside that window.`}
          other={`# chosen customers can get this update: ${inside} who wrote in the last 23 hours and ${outside} outside that window.`}
        />
      </p>
      {!allowed ? (
        <>
          <UpdatesNeedPermission />
          {refused ? (
            <p role="alert" className="text-red-700">
              <Trans>Without this permission Facebook does not let the page send updates.</Trans>
            </p>
          ) : null}
          <button
            type="button"
            data-testid="bulk-utility-allow"
            className={`${buttonPrimary} self-start`}
            disabled={asking}
            onClick={() => void allow()}
          >
            <Trans>Continue</Trans>
          </button>
        </>
      ) : value ? (
        <>
          <p className="font-medium text-slate-800">
            <Trans>
              Template <bdi data-testid="bulk-utility-name">{value.name}</bdi>
            </Trans>
          </p>
          <TemplateFill
            body={value.body}
            examples={examples}
            params={value.params}
            onParams={(params) => props.onChange({ ...value, params })}
            previewParams={
              props.first === undefined
                ? undefined
                : value.params.map((p) => personalText(p, props.first, props.fallback))
            }
          />
          <p className="text-xs text-slate-600">
            <Trans>
              Where a value is {FIRST_NAME_TOKEN}, each customer gets their own first name; the other values
              are the same for everyone.
            </Trans>
          </p>
          <button
            type="button"
            data-testid="bulk-utility-change"
            className={`${buttonSecondary} self-start`}
            onClick={() => props.onChange(undefined)}
          >
            <Trans>Choose another template</Trans>
          </button>
        </>
      ) : (
        <>
          <p className="text-slate-700">
            <Trans>Pick one of the page's approved templates:</Trans>
          </p>
          <ApprovedTemplates templates={templates.data} onPick={pick} testId="bulk-utility-templates" />
          {templates.isLoading ? (
            <p className="text-slate-500">
              <Trans>Loading templates…</Trans>
            </p>
          ) : none ? (
            <p className="text-slate-700" data-testid="bulk-utility-none">
              <Trans>
                The page has no approved template yet. Write one in Templates: Facebook reviews it within
                seconds.
              </Trans>
            </p>
          ) : templates.isError ? (
            <p role="alert" className="text-red-700">
              <Trans>Could not read the page's templates. Try again in a moment.</Trans>
            </p>
          ) : null}
        </>
      )}
    </div>
  )
}
