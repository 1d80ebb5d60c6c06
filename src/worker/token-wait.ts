/**
 * A job without its page token asks the tabs for one, then waits: it asks again only once its backoff
 * (5 s doubling to 5 min, jittered) has elapsed, whatever wakes it meanwhile, so a page without a token cannot
 * flood the network. When a tab answered that the accounts list has no token for the page, the card says to
 * reconnect it. A token arriving (a refresh, a new login) or the owner pausing and resuming ends the wait.
 */
import { TOKEN_RETRY_BASE_MS, TOKEN_RETRY_MAX_MS } from '../core/constants/limits.ts'
import { setAndPublish } from './job-effects.ts'
import { backoff } from '../core/bulk/pacer.ts'
import { bulkMessage, NO_PAGE_TOKEN } from '../device/bulk/protocol.ts'
import type { JobRecord } from '../device/bulk/records.ts'
import type { RunDeps, Streaks } from './run-deps.ts'

export async function waitForToken(deps: RunDeps, job: JobRecord, streaks: Streaks): Promise<void> {
  const stopReason = deps.tokenRefused(job.pageId) ? NO_PAGE_TOKEN : undefined
  if (job.state !== 'needs_signin' || job.stopReason !== stopReason)
    await setAndPublish(deps, job, 'needs_signin', { stopReason })
  const now = deps.now()
  if (now >= streaks.tokenAskAt) {
    streaks.tokenAsks++
    streaks.tokenAskAt =
      now + backoff(streaks.tokenAsks, TOKEN_RETRY_BASE_MS, TOKEN_RETRY_MAX_MS, deps.random)
    deps.channel.post(bulkMessage.needToken(job.pageId))
  }
  await deps.sleep(streaks.tokenAskAt - now)
}
