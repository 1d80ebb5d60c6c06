/**
 * "Signed-in devices" on the account page: every session of the user with its device, when it signed in and
 * when it was last used. Another device is signed out at once from here; this device signs out through
 * the normal sign-out (which also wipes its data). "Sign out everywhere else" ends all sessions but this one:
 * the phone in hand stays usable, and its own "Sign out" is one tap away.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SessionInfo } from '../../../core/contracts/api.ts'
import { formatLongDate, formatRelativeTime } from '../../../core/format/dates.ts'
import { buttonDanger, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { revokeOtherSessions, revokeSession, sessionsKey, sessionsQueryOptions } from '../api/sessions.ts'

export function SessionsSection({ onSignOutHere }: { onSignOutHere: () => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const sessions = useQuery(sessionsQueryOptions())
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsKey })
  const revoke = useMutation({ mutationFn: revokeSession, onSettled: refresh })
  const revokeOthers = useMutation({ mutationFn: revokeOtherSessions, onSettled: refresh })
  const list = sessions.data ?? []
  const others = list.filter((s) => !s.current).length
  return (
    <section
      aria-labelledby="sessions-title"
      data-testid="sessions-section"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="sessions-title" className="text-lg font-semibold text-slate-900">
        <Trans>Signed-in devices</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>Pagecast is open on these devices. Signing a device out ends its session at once.</Trans>
      </p>
      {sessions.isLoading ? <LoadingDots /> : null}
      {sessions.isError ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          <Trans>The list of devices could not be loaded.</Trans>
        </p>
      ) : null}
      <ul className="mt-4 divide-y divide-slate-100">
        {list.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            busy={revoke.isPending && revoke.variables === session.id}
            onSignOut={() => (session.current ? onSignOutHere() : revoke.mutate(session.id))}
          />
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={buttonDanger}
          disabled={others === 0 || revokeOthers.isPending}
          onClick={() => revokeOthers.mutate()}
          data-testid="sign-out-everywhere"
        >
          {revokeOthers.isPending ? t`Signing out…` : t`Sign out everywhere else`}
        </button>
        {others === 0 && sessions.isSuccess ? (
          <p className="text-sm text-slate-500">
            <Trans>No other device is signed in.</Trans>
          </p>
        ) : null}
      </div>
    </section>
  )
}

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: SessionInfo
  busy: boolean
  onSignOut: () => void
}) {
  const { i18n, t } = useLingui()
  const created = formatLongDate(session.created_at, i18n.locale)
  const used = formatRelativeTime(session.last_used_at, i18n.locale)
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
      data-testid="session-row"
    >
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span className="break-words">{session.device || t`Unknown device`}</span>
          {session.current ? (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
              <Trans>This device</Trans>
            </span>
          ) : null}
        </p>
        <p className="text-sm text-slate-500">
          <Trans>
            Signed in {created} · last used {used}
          </Trans>
        </p>
      </div>
      <button type="button" className={buttonSecondary} disabled={busy} onClick={onSignOut}>
        <Trans>Sign out</Trans>
      </button>
    </li>
  )
}
