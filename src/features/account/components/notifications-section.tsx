/**
 * "Notifications" on the account page: this device's switch (the browser asks for permission only after the
 * owner turns it on), why it cannot be turned on when it cannot (blocked, unsupported, iPhone outside the
 * installed app), and the owner's "hide message text" setting, which holds for every device.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import {
  type PushAvailability,
  browserPushEnvironment,
  currentSubscription,
  disablePush,
  enablePush,
  pushAvailability,
  pushSettingsKey,
  pushSettingsQueryOptions,
  setPushSettings,
  syncPushSubscription,
} from '../api/push.ts'

function Switch({
  checked,
  disabled,
  onChange,
  labelledBy,
  describedBy,
  testId,
}: {
  checked: boolean
  disabled?: boolean
  onChange: (next: boolean) => void
  labelledBy: string
  describedBy?: string
  testId: string
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      disabled={disabled}
      data-testid={testId}
      onClick={() => onChange(!checked)}
      // The track is drawn 48 x 28 inside a 56 x 44 target.
      className="group -my-2 grid h-11 w-14 shrink-0 place-items-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
    >
      <span
        aria-hidden="true"
        className={`inline-flex h-7 w-12 items-center rounded-full transition-colors ${
          checked ? 'bg-brand-600' : 'bg-slate-300'
        }`}
      >
        <span
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            checked ? 'translate-x-6 rtl:-translate-x-6' : 'translate-x-1 rtl:-translate-x-1'
          }`}
        />
      </span>
    </button>
  )
}

export function NotificationsSection() {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const ids = { device: useId(), deviceHelp: useId(), hide: useId(), hideHelp: useId() }
  const [availability, setAvailability] = useState<PushAvailability>(() =>
    pushAvailability(browserPushEnvironment()),
  )
  const [on, setOn] = useState<boolean | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  /** Why the last "on" left the switch off, when the browser or its push service said no. */
  const [problem, setProblem] = useState<'dismissed' | 'push-refused'>()

  useEffect(() => {
    let live = true
    // Reading the subscription never asks for anything.
    currentSubscription()
      .then((sub) => {
        if (live) setOn(sub !== null && Notification.permission === 'granted')
      })
      .catch(() => live && setOn(false))
    return () => {
      live = false
    }
  }, [])

  // The server words notifications in the language the device uses now.
  useEffect(() => {
    if (!on) return
    // A device whose subscription the server no longer holds (signed out since) is shown off.
    void syncPushSubscription(i18n.locale)
      .then(() => currentSubscription())
      .then((sub) => sub === null && setOn(false))
      .catch(() => undefined)
  }, [on, i18n.locale])

  const settings = useQuery(pushSettingsQueryOptions())
  const hide = useMutation({
    mutationFn: (hideText: boolean) => setPushSettings({ hideText }),
    onSuccess: (data) => queryClient.setQueryData(pushSettingsKey, data),
  })

  const toggle = async (next: boolean) => {
    setBusy(true)
    setFailed(false)
    setProblem(undefined)
    try {
      if (next) {
        const result = await enablePush(i18n.locale)
        if (result === 'on') setOn(true)
        else if (result === 'dismissed' || result === 'push-refused') setProblem(result)
        else if (result === 'denied') setAvailability('denied')
        else if (result === 'unsupported') setAvailability('unsupported')
      } else {
        await disablePush()
        setOn(false)
      }
    } catch (err) {
      console.error('notifications could not be switched', err)
      setFailed(true)
    } finally {
      setBusy(false)
    }
  }

  const unavailable: Record<Exclude<PushAvailability, 'available'>, string> = {
    unsupported: t`This browser cannot show notifications from Pagecast.`,
    'ios-install': t`On iPhone and iPad, notifications work only in the installed app: tap Share, then "Add to Home Screen", and open Pagecast from your home screen.`,
    denied: t`Notifications are blocked for Pagecast in this browser. Allow them in the site settings, then turn them on here.`,
  }

  return (
    <section
      aria-labelledby="notifications-title"
      data-testid="notifications-section"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="notifications-title" className="text-lg font-semibold text-slate-900">
        <Trans>Notifications</Trans>
      </h2>
      <div className="mt-4 flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p id={ids.device} className="font-medium text-slate-900">
            <Trans>Notify me on this device</Trans>
          </p>
          <p id={ids.deviceHelp} className="mt-1 text-sm text-slate-600">
            <Trans>A notification when a customer writes and Pagecast is not open on your screen.</Trans>
          </p>
        </div>
        <Switch
          checked={on === true}
          disabled={busy || on === undefined || (availability !== 'available' && on !== true)}
          onChange={(next) => void toggle(next)}
          labelledBy={ids.device}
          describedBy={ids.deviceHelp}
          testId="notifications-switch"
        />
      </div>
      {availability !== 'available' ? (
        <p
          role="status"
          data-testid="notifications-unavailable"
          className="mt-3 text-sm font-medium text-amber-800"
        >
          {unavailable[availability]}
        </p>
      ) : null}
      {problem ? (
        <p
          role="alert"
          data-testid="notifications-problem"
          className="mt-3 text-sm font-medium text-amber-800"
        >
          {problem === 'dismissed' ? (
            <Trans>
              Notifications stay off: you closed the browser's question without allowing them. Turn the switch
              on again and choose Allow.
            </Trans>
          ) : (
            <Trans>
              Notifications stay off: this browser's push service refused this device (it may be offline or
              blocked on this network). Try again in a moment; if it keeps failing, use another browser.
            </Trans>
          )}
        </p>
      ) : null}
      {failed ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          <Trans>Notifications could not be switched. Check your connection and try again.</Trans>
        </p>
      ) : null}
      <div className="mt-5 flex items-start justify-between gap-4 border-t border-slate-100 pt-4">
        <div className="min-w-0">
          <p id={ids.hide} className="font-medium text-slate-900">
            <Trans>Hide message text in notifications</Trans>
          </p>
          <p id={ids.hideHelp} className="mt-1 text-sm text-slate-600">
            <Trans>
              Notifications name the customer and the page but not what they wrote. This applies to all your
              devices.
            </Trans>
          </p>
        </div>
        <Switch
          checked={(hide.isPending ? hide.variables : settings.data?.hideText) === true}
          disabled={!settings.isSuccess || hide.isPending}
          onChange={(next) => hide.mutate(next)}
          labelledBy={ids.hide}
          describedBy={ids.hideHelp}
          testId="notifications-hide-text"
        />
      </div>
    </section>
  )
}
