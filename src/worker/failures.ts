/**
 * A failed step, by the error's class (docs/product-rules.md#graph-error-classes): the plan comes from the
 * one policy both senders share (shared/bulk/core/failure-policy.ts); this writes it to the device's store.
 */
import { Dexie } from 'dexie'
import { planFailure } from '../shared/bulk/core/failure-policy.ts'
import { backToPending } from '../shared/bulk/job-steps.ts'
import { reject, setAndPublish, tellServer } from './job-effects.ts'
import { backoff, RETRY_BASE_MS, RETRY_MAX_MS } from '../shared/bulk/core/pacer.ts'
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
  const r = streaks.current
  const fresh = r ? await recipients.get(r.key) : undefined
  const sending = !!r && fresh?.state === 'sending'
  const plan = planFailure(err, {
    sending,
    failures: fresh?.failures ?? 0,
    streak: (action) =>
      action === 'uncertain'
        ? ++streaks.offline
        : action === 'throttle'
          ? ++streaks.throttle
          : ++streaks.server,
    random: deps.random,
    pacingScale: deps.pacingScale,
  })
  if (r && sending && plan.recipient === 'pending')
    await backToPending(r.key, plan.failures ? { failures: plan.failures } : {})
  const at = deps.now() + (plan.waitMs ?? 0)
  switch (plan.action) {
    case 'uncertain':
      // The recipient stays `sending`: it is reconciled before any retry. The `online` event wakes the sleep.
      await setAndPublish(deps, job, 'waiting_connection')
      await deps.sleep(plan.waitMs!)
      return undefined
    case 'throttle':
      await setAndPublish(deps, job, 'rate_limited', { nextSendAt: at })
      return undefined
    case 'needs_token':
      deps.dropPageToken(job.pageId)
      await setAndPublish(deps, job, 'needs_signin')
      return undefined
    case 'stop':
      await setAndPublish(deps, job, 'stopped', { stopReason: plan.reason! })
      await tellServer(deps, job.id, 'stopped', plan.reason)
      return 'stopped'
    case 'reject':
      if (r) await reject(deps, job, r, plan.reason!, plan.kind)
      return undefined
    case 'none':
    case 'wait':
    case 'retry':
      await setAndPublish(deps, job, job.state, { nextSendAt: at })
      return undefined
  }
}
