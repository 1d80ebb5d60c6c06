/** Step 2: the content type the policy allows; retired tags are shown disabled with the reason. */
import { Trans } from '@lingui/react/macro'
import { contentOptions, type ContentType } from '../../../shared/policy/messaging.ts'
import type { MessagingPolicyName } from '../../../shared/policy/tags.ts'

export function ContentStep(props: {
  policy: MessagingPolicyName
  value?: ContentType
  onChange(v: ContentType): void
}) {
  return (
    <fieldset className="flex flex-col gap-2 text-sm">
      <legend className="mb-2 text-slate-600">
        <Trans>
          Messages may only be sent within 24 hours of the customer's last interaction. Misuse may lead to the
          page being suspended.
        </Trans>
      </legend>
      {contentOptions(props.policy).map((o) => (
        <label key={o.value} className={`flex items-start gap-2 ${o.enabled ? '' : 'text-slate-400'}`}>
          <input
            type="radio"
            name="bulk-content"
            value={o.value}
            disabled={!o.enabled}
            checked={props.value === o.value}
            onChange={() => props.onChange(o.value)}
            className="mt-1"
          />
          {/* Line height `normal` is each script's own: Nastaliq (Urdu) needs far more than Latin, or the name
              and the reason below it overlap. */}
          <span className="leading-[normal]">
            <ContentName value={o.value} />
            {o.reason === 'retired' ? (
              <span className="block text-xs leading-[normal]">
                <Trans>Retired by the network: requests with this tag are refused.</Trans>
              </span>
            ) : null}
          </span>
        </label>
      ))}
    </fieldset>
  )
}

function ContentName({ value }: { value: ContentType }) {
  switch (value) {
    case 'STANDARD':
      return <Trans>Standard message (inside the 24-hour window)</Trans>
    case 'CONFIRMED_EVENT_UPDATE':
      return <Trans>Confirmed event update</Trans>
    case 'POST_PURCHASE_UPDATE':
      return <Trans>Post-purchase update</Trans>
    case 'ACCOUNT_UPDATE':
      return <Trans>Account update</Trans>
  }
}
