/**
 * What a failed step means, by the error's class (docs/product-rules.md#graph-error-classes): throttling
 * backs off, auth waits for a fresh token, a blocked page or configuration error stops the job, recipient
 * errors reject that recipient, transient errors retry a bounded number of times, and a network failure
 * leaves the send uncertain.
 */
import { Dexie } from 'dexie'
import { failureKind } from '../shared/graph/delivery.ts'
import { failureAction, marketingOf, marketingReason } from '../shared/bulk/core/failure-policy.ts'
import { backToPending } from '../shared/bulk/job-steps.ts'
import { pauseOffline, reject, setAndPublish, tellServer } from './job-effects.ts'
import {
  backoff,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  THROTTLE_BASE_MS,
  THROTTLE_MAX_MS,
} from '../shared/bulk/core/pacer.ts'
import { recipients, type JobRecord } from '../shared/bulk/records.ts'
import type { RunDeps, RunOutcome, Streaks } from './run-deps.ts'

export async function handleFailure(
  deps: RunDeps,
  job: JobRecord,
  err: unknown,
  streaks: Streaks,
): Promise<RunOutcome | undefined> {
  if (err instanceof Dexie.DexieError) {
    // Storage failed (a connection lost on wake): nothing is sent that cannot be recorded. A recipient left
    // `sending` is reconciled on the next pass; the step is retried after a pause.
    console.warn('bulk sender storage error', err)
    streaks.server++
    await deps.sleep(backoff(streaks.server, RETRY_BASE_MS, RETRY_MAX_MS, deps.random))
    return undefined
  }
  const kind = failureKind(err)
  const message = err instanceof Error ? err.message : String(err)
  const r = streaks.current
  const fresh = r ? await recipients.get(r.key) : undefined
  const sending = fresh?.state === 'sending'
  const marketing = marketingOf(err)
  // Counted only if this failure is a transient one (see failureAction): other kinds leave it as it was.
  const failures = (fresh?.failures ?? 0) + 1
  switch (failureAction(kind, !!r && sending, failures, marketing)) {
    case 'uncertain':
      // The recipient stays `sending`: it is reconciled before any retry.
      await pauseOffline(deps, job, streaks)
      return undefined
    case 'throttle': {
      if (r && sending) await backToPending(r.key)
      streaks.throttle++
      const retryAfter = (err as { retryAfterMs?: number }).retryAfterMs
      const wait =
        retryAfter ??
        backoff(streaks.throttle, THROTTLE_BASE_MS, THROTTLE_MAX_MS, deps.random, deps.pacingScale)
      await setAndPublish(deps, job, 'rate_limited', { nextSendAt: deps.now() + wait })
      return undefined
    }
    case 'needs_token':
      if (r && sending) await backToPending(r.key)
      deps.dropPageToken(job.pageId)
      await setAndPublish(deps, job, 'needs_signin')
      return undefined
    case 'stop':
      if (r && sending) await backToPending(r.key)
      await setAndPublish(deps, job, 'stopped', {
        stopReason: marketingReason(marketing) ?? `${kind}:${message}`,
      })
      await tellServer(deps, job.id, 'stopped', marketingReason(marketing) ?? `${kind}: ${message}`)
      return 'stopped'
    case 'reject':
      if (r) await reject(deps, job, r, marketingReason(marketing) ?? message, kind)
      return undefined
    case 'none':
      return undefined
    case 'wait':
      // Not a send that failed (reading for reconciliation): wait and look again.
      streaks.server++
      await setAndPublish(deps, job, job.state, {
        nextSendAt:
          deps.now() + backoff(streaks.server, RETRY_BASE_MS, RETRY_MAX_MS, deps.random, deps.pacingScale),
      })
      return undefined
    case 'retry': {
      await backToPending(r!.key, { failures })
      const wait = backoff(failures, RETRY_BASE_MS, RETRY_MAX_MS, deps.random, deps.pacingScale)
      await setAndPublish(deps, job, job.state, { nextSendAt: deps.now() + wait })
      return undefined
    }
  }
}
