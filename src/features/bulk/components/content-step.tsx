/**
 * Step 2: the content type the policy allows; retired tags are shown disabled with the reason and point to
 * their successor. Under the current policy "Update from a template" sends one of the page's approved utility
 * templates to everyone chosen, inside the window or not. With marketing messages on, "Ask to subscribe"
 * sends an opt-in request (a title the owner may edit) instead of a message, to the customers inside the
 * window only, leaving out those asked this week or already subscribed.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { OPTIN_TITLE_MAX, type OptinCheckResponse } from '../../../core/contracts/marketing.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { contentOptions, type ContentType, type TagSuccessor } from '../../../core/policy/messaging.ts'
import type { MessagingPolicyName } from '../../../core/policy/tags.ts'

export interface OptinChoice {
  selected: boolean
  onSelect(): void
  title: string
  onTitle(title: string): void
  /** The check of who may be asked with this title; undefined while it runs. */
  check: OptinCheckResponse | undefined
  checkFailed: boolean
}

/** An update from one of the page's approved templates (a utility message). */
export interface UpdateChoice {
  selected: boolean
  onSelect(): void
  /** The template, its values and the preview: shown while chosen, loaded when first chosen. */
  panel: ReactNode
}

export function ContentStep(props: {
  policy: MessagingPolicyName
  value?: ContentType
  onChange(v: ContentType): void
  /** Offered under the current policy. */
  update?: UpdateChoice | undefined
  /** Offered when the page has marketing messages on. */
  optin?: OptinChoice | undefined
}) {
  // Another kind of content than a message of this list is chosen.
  const otherKind = !!props.optin?.selected || !!props.update?.selected
  return (
    <fieldset className="flex flex-col gap-2 text-sm">
      <legend className="mb-2 text-slate-600">
        <Trans>
          Facebook lets a page message a customer only within 24 hours of their last message; Pagecast keeps
          an hour to spare and sends to those who wrote in the last 23 hours. Misuse may get the page
          suspended.
        </Trans>
      </legend>
      {contentOptions(props.policy).map((o) => (
        <div key={o.value} className="flex flex-col gap-1">
          <label className={`flex items-start gap-2 ${o.enabled ? '' : 'text-slate-400'}`}>
            <input
              type="radio"
              name="bulk-content"
              value={o.value}
              disabled={!o.enabled}
              checked={!otherKind && props.value === o.value}
              onChange={() => props.onChange(o.value)}
              className="mt-1"
            />
            {/* Line height `normal` is each script's own: Nastaliq (Urdu) needs far more than Latin, or the name
                and the reason below it overlap. */}
            <span className="leading-[normal]">
              <ContentName value={o.value} />
              {o.successor ? (
                <span className="block text-xs leading-[normal] text-slate-600" data-testid="tag-successor">
                  <SuccessorText successor={o.successor} />
                </span>
              ) : o.reason === 'retired' ? (
                <span className="block text-xs leading-[normal]">
                  <Trans>No longer allowed by Facebook: messages with this tag are refused.</Trans>
                </span>
              ) : null}
            </span>
          </label>
          {o.successor && props.update && !props.update.selected ? (
            <button
              type="button"
              data-testid="tag-successor-use"
              className="ms-6 min-h-11 self-start px-1 text-start leading-[normal] text-brand-700 underline"
              onClick={props.update.onSelect}
            >
              <Trans>Use an update from a template</Trans>
            </button>
          ) : null}
        </div>
      ))}
      {props.update ? <UpdateOption update={props.update} /> : null}
      {props.optin ? <OptinOption optin={props.optin} /> : null}
    </fieldset>
  )
}

/** A kind of content other than a message: its radio, its name with a note, and its own fields once chosen. */
function KindOption(props: {
  value: string
  testId: string
  selected: boolean
  onSelect(): void
  name: ReactNode
  note: ReactNode
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-2">
      <label className="flex items-start gap-2">
        <input
          type="radio"
          name="bulk-content"
          value={props.value}
          checked={props.selected}
          onChange={props.onSelect}
          className="mt-1"
          data-testid={props.testId}
        />
        <span className="leading-[normal]">
          {props.name}
          <span className="block text-xs leading-[normal] text-slate-500">{props.note}</span>
        </span>
      </label>
      {props.selected ? props.children : null}
    </div>
  )
}

function UpdateOption({ update }: { update: UpdateChoice }) {
  return (
    <KindOption
      value="utility"
      testId="bulk-utility-option"
      selected={update.selected}
      onSelect={update.onSelect}
      name={<Trans>Update from a template</Trans>}
      note={
        <Trans>
          The same reminder for everyone, such as an event's date and place, from one of the page's approved
          templates. It reaches customers outside the 24-hour window too.
        </Trans>
      }
    >
      <div className="ps-6">{update.panel}</div>
    </KindOption>
  )
}

function OptinOption({ optin }: { optin: OptinChoice }) {
  const { i18n } = useLingui()
  const n = (v: number) => formatNumber(v, i18n.locale)
  const refused = optin.check?.refused ?? []
  const title = optin.title.trim()
  const [length, max] = [n(optin.title.length), n(OPTIN_TITLE_MAX)]
  const [allowed, asked, subscribed] = [
    n(optin.check?.allowed.length ?? 0),
    n(refused.filter((r) => r.reason === 'asked_this_week').length),
    n(refused.filter((r) => r.reason === 'subscribed').length),
  ]
  return (
    <KindOption
      value="optin_request"
      testId="bulk-optin"
      selected={optin.selected}
      onSelect={optin.onSelect}
      name={<Trans>Ask to subscribe</Trans>}
      note={
        <Trans>
          An opt-in request to the customers inside the window: those who accept can later get marketing
          messages outside it.
        </Trans>
      }
    >
      <div className="flex flex-col gap-2 ps-6 leading-[normal]">
        <label className="flex flex-col gap-1">
          <span className="font-medium text-slate-700">
            <Trans>Title of the request</Trans>
          </span>
          <input
            type="text"
            dir="auto"
            className="rounded-lg border border-slate-300 p-2"
            value={optin.title}
            maxLength={OPTIN_TITLE_MAX}
            onChange={(e) => optin.onTitle(e.target.value)}
            data-testid="bulk-optin-title"
          />
          <span className="text-xs text-slate-500">
            <Trans>
              {length}/{max} characters. One request with the same title per customer per week.
            </Trans>
          </span>
        </label>
        {!title ? (
          <p className="text-red-700" role="alert">
            <Trans>Enter a title for the request.</Trans>
          </p>
        ) : optin.checkFailed ? (
          <p className="text-amber-800" data-testid="bulk-optin-check">
            <Trans>Could not check who was already asked; Messenger will refuse repeated requests.</Trans>
          </p>
        ) : optin.check === undefined ? (
          <p className="text-slate-500" data-testid="bulk-optin-check">
            <Trans>Checking who can be asked…</Trans>
          </p>
        ) : (
          <p className="text-slate-700" data-testid="bulk-optin-check">
            <Trans>
              {allowed} will be asked. Left out: {asked} asked this week, {subscribed} already subscribed.
            </Trans>
          </p>
        )}
      </div>
    </KindOption>
  )
}

/** Where a retired tag's message goes now: a utility message from a template (a chat's "Send an update"). */
function SuccessorText({ successor }: { successor: TagSuccessor }) {
  switch (successor) {
    case 'event_reminder':
      return (
        <Trans>
          Facebook replaced this tag with utility messages: send an event reminder from a template (in a chat:
          "Send an update").
        </Trans>
      )
    case 'order_update':
      return (
        <Trans>
          Facebook replaced this tag with utility messages: send an order update from a template (in a chat:
          "Send an update").
        </Trans>
      )
    case 'account_update':
      return (
        <Trans>
          Facebook replaced this tag with utility messages: send an account update from a template (in a chat:
          "Send an update").
        </Trans>
      )
  }
}

function ContentName({ value }: { value: ContentType }) {
  switch (value) {
    case 'STANDARD':
      return <Trans>Standard message (to customers who wrote in the last 23 hours)</Trans>
    case 'CONFIRMED_EVENT_UPDATE':
      return <Trans>Confirmed event update</Trans>
    case 'POST_PURCHASE_UPDATE':
      return <Trans>Post-purchase update</Trans>
    case 'ACCOUNT_UPDATE':
      return <Trans>Account update</Trans>
  }
}
