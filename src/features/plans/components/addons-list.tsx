/** Add-on message packs (docs/product-rules.md#plans-and-add-ons); each opens its checkout in a new tab. */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { addons } from '../../../core/constants/plans.ts'
import { formatUsd } from '../../../core/format/numbers.ts'
import { openCheckout } from '../api/checkout.ts'

export function AddonsList({ referral }: { referral?: string | null }) {
  const { i18n } = useLingui()
  const [busy, setBusy] = useState<string>()
  async function buy(id: string) {
    setBusy(id)
    await openCheckout(id, true, referral).catch(() => undefined)
    setBusy(undefined)
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        <Trans>
          Add-ons never expire and are used after your subscription messages. An active subscription is
          required.
        </Trans>
      </p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {addons.map((a) => {
          const { messages } = a
          return (
            <li key={a.id}>
              <button
                type="button"
                disabled={busy === a.id}
                onClick={() => buy(a.id)}
                data-testid="addon"
                className={`flex w-full items-center justify-between gap-3 rounded-xl p-3 text-start ring-1 hover:bg-brand-50 ${a.highlight ? 'bg-brand-50 ring-2 ring-brand-500' : 'bg-white ring-slate-200'}`}
              >
                <span className="font-semibold text-slate-900">
                  <Plural value={messages} one="# message" other="# messages" />
                </span>
                <span className="font-bold text-brand-700 tabular-nums">
                  {formatUsd(a.price, i18n.locale)}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
