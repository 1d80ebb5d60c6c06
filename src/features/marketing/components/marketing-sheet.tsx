/**
 * "Marketing messages" of one page (`?modal=marketing`): what they are, what they cost and where they work;
 * then, only when the owner continues, the network's dialog for the two extra permissions; then the ad
 * account; then on. Once on: the ad account, the subscribers, a refresh from the network and turning off.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  disableMarketing,
  enableMarketing,
  listMarketingAdAccounts,
  marketingKeys,
  marketingQueryKey,
  marketingQueryOptions,
  syncMarketingSubscribers,
} from '../../../shared/api/marketing.ts'
import { isApiError } from '../../../shared/api/client.ts'
import type { MarketingAdAccount, MarketingState } from '../../../core/contracts/marketing.ts'
import { formatDateTime } from '../../../core/format/dates.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { refreshAccounts, requestExtraPermissions } from '../../../shared/session/actions.ts'
import type { ExtraPermissionsResult } from '../../../shared/session/actions.ts'
import { buttonDanger, buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { closeModal } from '../../../shared/ui/modal-stack.ts'
import { refusalText } from '../model/error-text.ts'
import {
  regionList,
  regionName,
  SERVED_BUSINESS_COUNTRIES,
  UNREACHED_SUBSCRIBER_REGIONS,
} from '../model/regions.ts'
import { MARKETING_PERMISSIONS } from '../model/scopes.ts'

/** What the sheet asks of the session and the API; tests pass their own. */
export interface MarketingDeps {
  requestPermissions: (scopes: readonly string[]) => Promise<ExtraPermissionsResult>
  /** The page's token from a fresh accounts list (after the extra permissions, it carries them). */
  freshPageToken: (pageId: string) => Promise<string | undefined>
  adAccounts: typeof listMarketingAdAccounts
  enable: typeof enableMarketing
  disable: typeof disableMarketing
  sync: typeof syncMarketingSubscribers
}

const defaultDeps: MarketingDeps = {
  requestPermissions: requestExtraPermissions,
  freshPageToken: async (pageId) => (await refreshAccounts()).find((a) => a.id === pageId)?.access_token,
  adAccounts: listMarketingAdAccounts,
  enable: enableMarketing,
  disable: disableMarketing,
  sync: syncMarketingSubscribers,
}

/** The modal's body (the app's modal layer draws the frame and its title, "Marketing messages"). */
export function MarketingPanel({ pageId, deps }: { pageId: string; deps?: Partial<MarketingDeps> }) {
  return <MarketingBody pageId={pageId} deps={{ ...defaultDeps, ...deps }} />
}

function MarketingBody({ pageId, deps }: { pageId: string; deps: MarketingDeps }) {
  const state = useQuery(marketingQueryOptions(pageId))
  if (state.isPending) return <LoadingDots />
  if (state.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        <Trans>The marketing messages of this page could not be read. Please try again later.</Trans>
      </p>
    )
  return state.data.enabled ? (
    <MarketingStatus pageId={pageId} state={state.data} deps={deps} />
  ) : (
    <TurnOnFlow pageId={pageId} state={state.data} deps={deps} />
  )
}

type Step =
  | { name: 'explain' }
  | { name: 'asking' }
  | { name: 'declined'; reason: 'declined' | 'not_connected' }
  | { name: 'accounts'; userToken: string }

function TurnOnFlow({ pageId, state, deps }: { pageId: string; state: MarketingState; deps: MarketingDeps }) {
  const [step, setStep] = useState<Step>({ name: 'explain' })
  // Called straight from the click: the network's dialog needs the user's gesture.
  const ask = () => {
    setStep({ name: 'asking' })
    void deps
      .requestPermissions(MARKETING_PERMISSIONS)
      .then((r) =>
        setStep(
          r.granted ? { name: 'accounts', userToken: r.userToken } : { name: 'declined', reason: r.reason },
        ),
      )
  }
  if (step.name === 'accounts')
    return <ChooseAccount pageId={pageId} userToken={step.userToken} deps={deps} />
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="marketing-explain">
      <Explanation state={state} />
      {step.name === 'declined' ? (
        <p
          role="alert"
          data-testid="marketing-declined"
          className="rounded-lg bg-amber-50 p-3 text-amber-900"
        >
          {step.reason === 'declined' ? (
            <Trans>
              Marketing messages need both permissions: managing your ads and sending paid marketing messages.
              Nothing was changed. Continue again and keep both checked.
            </Trans>
          ) : (
            <Trans>The permission dialog was closed before it answered. Nothing was changed.</Trans>
          )}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={() => closeModal('marketing')}>
          <Trans>Not now</Trans>
        </button>
        <button type="button" className={buttonPrimary} disabled={step.name === 'asking'} onClick={ask}>
          {step.name === 'declined' ? <Trans>Try again</Trans> : <Trans>Continue</Trans>}
        </button>
      </div>
    </div>
  )
}

function Explanation({ state }: { state: MarketingState }) {
  const { i18n } = useLingui()
  const served = regionList(SERVED_BUSINESS_COUNTRIES, i18n.locale)
  const unreached = regionList(UNREACHED_SUBSCRIBER_REGIONS, i18n.locale, false)
  const country = state.country ? regionName(state.country, i18n.locale) : undefined
  return (
    <>
      {state.available === false && country ? (
        <p
          role="alert"
          data-testid="marketing-unavailable"
          className="rounded-lg bg-amber-50 p-3 text-amber-900"
        >
          <Trans>Marketing messages aren't available for businesses in {country}.</Trans>
        </p>
      ) : null}
      <section>
        <h3 className="font-semibold text-slate-900">
          <Trans>What they are</Trans>
        </h3>
        <p>
          <Trans>
            Customers who tap "Subscribe" on your request get your news and offers from the page, also more
            than 24 hours after their last message. They can stop them at any time.
          </Trans>
        </p>
      </section>
      <section>
        <h3 className="font-semibold text-slate-900">
          <Trans>What they cost</Trans>
        </h3>
        <p>
          <Trans>
            Facebook bills your page's ad account for each delivered marketing message. Pagecast also counts
            each one as a message of your plan.
          </Trans>
        </p>
      </section>
      <section>
        <h3 className="font-semibold text-slate-900">
          <Trans>Where they work</Trans>
        </h3>
        <p data-testid="marketing-served">
          <Trans>For businesses based in {served}.</Trans>
        </p>
        <p data-testid="marketing-unreached">
          <Trans>Wherever your business is, subscribers living in {unreached} don't receive them.</Trans>
        </p>
      </section>
      <p className="text-xs text-slate-500">
        <Trans>
          Continue opens a Facebook window where you allow Pagecast to use your ad account for them.
        </Trans>
      </p>
    </>
  )
}

function ChooseAccount({
  pageId,
  userToken,
  deps,
}: {
  pageId: string
  userToken: string
  deps: MarketingDeps
}) {
  const { i18n, t } = useLingui()
  const queryClient = useQueryClient()
  const accounts = useQuery({
    queryKey: marketingKeys.adAccounts(pageId),
    queryFn: () => deps.adAccounts(pageId, userToken),
    // The user token is used once: never read again in the background.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })
  const [chosen, setChosen] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  if (accounts.isPending) return <LoadingDots />
  if (accounts.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        <Trans>Your ad accounts could not be read. Please try again later.</Trans>
      </p>
    )
  const list = accounts.data
  const usable = list.filter((a) => a.active && a.available)
  const pick = chosen ?? (usable.length === 1 ? usable[0]?.id : undefined)
  const turnOn = async () => {
    if (!pick) return
    setBusy(true)
    setError(undefined)
    try {
      const pageToken = await deps.freshPageToken(pageId)
      if (!pageToken) {
        setError(t`The page's access could not be read again. Please try again.`)
        return
      }
      const state = await deps.enable(pageId, { page_token: pageToken, ad_account_id: pick })
      queryClient.setQueryData(marketingQueryKey(pageId), state)
    } catch (err) {
      setError(i18n._(refusalText(isApiError(err) && err.status === 422 ? err.body : undefined)))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="marketing-accounts">
      <p className="font-semibold text-slate-900">
        <Trans>Which ad account pays for them?</Trans>
      </p>
      {list.length === 0 ? (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-amber-900">
          <Trans>You have no ad account. Create one in Facebook Ads Manager, then try again.</Trans>
        </p>
      ) : (
        <ul className="space-y-2" aria-label={t`Ad accounts`}>
          {list.map((a) => (
            <AccountOption key={a.id} account={a} checked={pick === a.id} onPick={() => setChosen(a.id)} />
          ))}
        </ul>
      )}
      {list.length > 0 && usable.length === 0 ? <NoneUsable list={list} /> : null}
      {error ? (
        <p role="alert" data-testid="marketing-error" className="text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={() => closeModal('marketing')}>
          <Trans>Not now</Trans>
        </button>
        <button
          type="button"
          className={buttonPrimary}
          disabled={!pick || busy}
          onClick={() => void turnOn()}
        >
          {busy ? <Trans>Turning on…</Trans> : <Trans>Turn on</Trans>}
        </button>
      </div>
    </div>
  )
}

function AccountOption({
  account,
  checked,
  onPick,
}: {
  account: MarketingAdAccount
  checked: boolean
  onPick: () => void
}) {
  const { i18n } = useLingui()
  const country = account.country ? regionName(account.country, i18n.locale) : undefined
  const disabled = !account.active || !account.available
  return (
    <li>
      <label
        data-testid="ad-account"
        className={`flex items-start gap-3 rounded-lg border p-3 ${
          disabled ? 'border-slate-200 bg-slate-50 text-slate-500' : 'border-slate-300'
        } ${checked ? 'border-brand-600 ring-1 ring-brand-600' : ''}`}
      >
        <input
          type="radio"
          name="ad-account"
          className="mt-1"
          checked={checked}
          disabled={disabled}
          onChange={onPick}
        />
        <span className="min-w-0">
          <span dir="auto" className="block font-medium">
            {account.name}
          </span>
          <span className="block text-xs">
            {account.currency}
            {country ? ` · ${country}` : ''}
          </span>
          {!account.active ? (
            <span className="block text-xs text-amber-800">
              <Trans>This ad account is not active.</Trans>
            </span>
          ) : !account.available ? (
            <span className="block text-xs text-amber-800">
              {country ? (
                <Trans>Not available for businesses in {country}.</Trans>
              ) : (
                <Trans>Not available in this ad account's country.</Trans>
              )}
            </span>
          ) : null}
        </span>
      </label>
    </li>
  )
}

function NoneUsable({ list }: { list: MarketingAdAccount[] }) {
  const { i18n } = useLingui()
  const countries = [...new Set(list.filter((a) => a.active && !a.available).flatMap((a) => a.country ?? []))]
  const names = countries.length > 0 ? regionList(countries, i18n.locale) : undefined
  return (
    <p role="alert" data-testid="marketing-none-usable" className="rounded-lg bg-amber-50 p-3 text-amber-900">
      {names ? (
        <Trans>Marketing messages aren't available for businesses in {names}.</Trans>
      ) : (
        <Trans>None of your ad accounts is active. Marketing messages need an active ad account.</Trans>
      )}
    </p>
  )
}

function MarketingStatus({
  pageId,
  state,
  deps,
}: {
  pageId: string
  state: MarketingState
  deps: MarketingDeps
}) {
  const { i18n, t } = useLingui()
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState<'sync' | 'off'>()
  const [confirmOff, setConfirmOff] = useState(false)
  const [error, setError] = useState<string>()
  const active = formatNumber(state.subscribers.active, i18n.locale)
  const stopped = formatNumber(state.subscribers.stopped, i18n.locale)
  const synced = state.tokens_synced_at
    ? formatDateTime(Date.parse(state.tokens_synced_at), i18n.locale, 'medium')
    : undefined
  const refresh = async () => {
    setBusy('sync')
    setError(undefined)
    try {
      const token = await deps.freshPageToken(pageId)
      if (!token) throw new Error('no page token')
      await deps.sync(pageId, token)
    } catch {
      setError(t`The subscribers could not be read from Facebook. Please try again.`)
    } finally {
      setBusy(undefined)
      await queryClient.invalidateQueries({ queryKey: marketingQueryKey(pageId) })
    }
  }
  const turnOff = async () => {
    setBusy('off')
    try {
      await deps.disable(pageId)
      setConfirmOff(false)
      await queryClient.invalidateQueries({ queryKey: marketingQueryKey(pageId) })
    } catch {
      // The API client has told the owner why.
    } finally {
      setBusy(undefined)
    }
  }
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="marketing-status">
      <p className="font-medium text-emerald-900">
        <Trans>Marketing messages are on for this page.</Trans>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="text-slate-500">
          <Trans>Ad account</Trans>
        </dt>
        <dd dir="auto" data-testid="marketing-ad-account">
          {state.ad_account ? `${state.ad_account.name} (${state.ad_account.currency})` : '—'}
        </dd>
        <dt className="text-slate-500">
          <Trans>Subscribers</Trans>
        </dt>
        <dd data-testid="marketing-subscribers">
          <Trans>
            {active} active, {stopped} stopped
          </Trans>
        </dd>
        <dt className="text-slate-500">
          <Trans>Last read</Trans>
        </dt>
        <dd data-testid="marketing-synced">{synced ?? <Trans>Not yet</Trans>}</dd>
      </dl>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
      {confirmOff ? (
        <div
          role="alertdialog"
          aria-label={t`Turn off marketing messages?`}
          className="space-y-3 rounded-lg bg-red-50 p-3"
        >
          <p>
            <Trans>
              Turn off marketing messages for this page? Bulk sends reach only customers inside the 24-hour
              window again. Your subscribers are kept, so you can turn them on later.
            </Trans>
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonSecondary} onClick={() => setConfirmOff(false)}>
              <Trans>Keep on</Trans>
            </button>
            <button type="button" className={buttonDanger} disabled={!!busy} onClick={() => void turnOff()}>
              <Trans>Turn off</Trans>
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className={buttonSecondary}
            disabled={!!busy}
            onClick={() => setConfirmOff(true)}
          >
            <Trans>Turn off…</Trans>
          </button>
          <button type="button" className={buttonPrimary} disabled={!!busy} onClick={() => void refresh()}>
            {busy === 'sync' ? <Trans>Reading subscribers…</Trans> : <Trans>Refresh subscribers</Trans>}
          </button>
        </div>
      )}
    </div>
  )
}
