/**
 * Marketing messages in a bulk job (docs/architecture.md#scheduled-sends-and-marketing-jobs):
 * `POST /messages/:id/marketing` creates the job's campaign with the owner's budget on the network and hands
 * the job to the server sender (the hand-over of `/messages/:id/handover`: the page token sealed at rest, the
 * lease moved on), since marketing messages are sent by the server only. A retried call for the same job
 * creates no second campaign. `GET /pages/:pageId/marketing/estimate?count=N` answers the estimated price.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { estimateQuery, startMarketingBody, type StartMarketingBody } from '../../core/contracts/marketing.ts'
import { estimateMinor, perMessageMinor } from '../../core/marketing/rates.ts'
import type { ApiContext } from '../context.ts'
import type { Store } from '../db/store.ts'
import { currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { HttpError, parse } from '../http/errors.ts'
import { marketingOf } from '../../core/bulk/failure-policy.ts'
import { GraphError } from '../../core/graph/errors.ts'
import { handOver, KindMismatch, LeaseConflict } from '../bulk/jobs.ts'
import type { MarketingJobGraph } from '../bulk/marketing.ts'
import { marketingPage, type MarketingPageRow } from '../repo/marketing.ts'
import {
  MessageNotFound,
  ensureJobCampaign,
  marketingJob,
  type MarketingJobRow,
  reopenMarketingJob,
} from '../repo/messages.ts'
import { conflict, kindConflict } from './handover.ts'
import { answering, messageId } from './messages.ts'
import { NETWORK_UNREACHABLE, requireBoundPage } from './page-access.ts'

const pageParams = z.object({ pageId: z.string().regex(/^\d{1,32}$/, 'Must be a page id.') })

/** The page's marketing messages are off (or were never turned on): nothing is created. */
function marketingOff(): HttpError {
  return new HttpError(409, 'Marketing messages are off for this page.', undefined, 'marketing_off')
}

async function enabledPage(
  store: Store,
  pageId: string,
): Promise<MarketingPageRow & { currency: string; ad_account_id: string }> {
  const page = await marketingPage(store, pageId)
  if (!page?.enabled || !page.ad_account_id || !page.currency) throw marketingOff()
  return page as MarketingPageRow & { currency: string; ad_account_id: string }
}

/**
 * Creates the job's campaign once: the message row is locked while the network creates it, so two retried
 * calls cannot both create one, and the campaign is stored in the same transaction.
 */
async function ensureCampaign(
  store: Store,
  graph: MarketingJobGraph,
  id: string,
  job: MarketingJobRow,
  page: { ad_account_id: string; currency: string },
  body: StartMarketingBody,
): Promise<{ campaignId: string; estimate: number }> {
  return ensureJobCampaign(store, id, async () => {
    const name = `Pagecast ${id}`
    const campaign = await graph.createCampaign(page.ad_account_id, body.page_token, {
      name,
      pageId: job.page_id,
      budget: body.budget,
    })
    const message = await graph.createMarketingMessage(page.ad_account_id, body.page_token, {
      campaignId: campaign.id,
      pageId: job.page_id,
      name,
      text: job.message,
      ...(job.image_url ? { imageUrl: job.image_url } : {}),
    })
    return {
      adAccountId: page.ad_account_id,
      campaignId: campaign.id,
      marketingMessageId: message.id,
      budget: body.budget,
      currency: page.currency,
      estimate: estimateMinor(page.currency, job.marketing_count),
    }
  })
}

export function marketingJobRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }

  app.get('/pages/:pageId/marketing/estimate', auth, async (request) => {
    const { pageId } = parse(pageParams, request.params)
    const { count } = parse(estimateQuery, request.query)
    await requireBoundPage(ctx.store, currentUser(request).id, pageId)
    const page = await enabledPage(ctx.store, pageId)
    return {
      currency: page.currency,
      per_message_minor: perMessageMinor(page.currency),
      estimate_minor: estimateMinor(page.currency, count),
    }
  })

  const jobs = ctx.jobs
  const graph = ctx.marketingJobGraph
  if (!jobs || !graph) return

  app.post('/messages/:id/marketing', userLimited(ctx), async (request) => {
    const id = messageId(request.params)
    const body = parse(startMarketingBody, request.body)
    const userId = currentUser(request).id
    let job = await answering(marketingJob(ctx.store, id, userId))
    // Only a job created as a marketing job gets a campaign and goes to the marketing sender.
    if (job.kind !== 'marketing') throw kindConflict(new KindMismatch(job.kind))
    // A job a marketing failure stopped (campaign paused, budget spent) is resumed where it stopped once the
    // owner fixed it: it is opened again for this hand-over (one caller wins), its campaign kept.
    if (job.state === 'stopped' && job.campaign_id) {
      const reopened = await reopenMarketingJob(ctx.store, id)
      if (reopened !== undefined) body.lease = reopened
      job = await answering(marketingJob(ctx.store, id, userId))
    }
    // Retried after it went through (the server may have sent it meanwhile): the same answer, nothing created
    // or handed over again.
    if (job.campaign_id && job.sender === 'server' && ['open', 'finished'].includes(job.state))
      return answer(id, job.lease, job.campaign_id, job.currency ?? '', job.estimate_minor ?? 0)
    if (job.state !== 'open' || job.sender !== 'device' || job.lease !== body.lease)
      throw conflict(new LeaseConflict(job.lease, job.sender, 'The job was handed over already.'))
    const page = await enabledPage(ctx.store, job.page_id)
    if (body.budget.minor < perMessageMinor(page.currency))
      throw new HttpError(
        422,
        'The given data was invalid.',
        { 'budget.minor': ['budget_too_small'] },
        'budget_too_small',
      )
    const { campaignId, estimate } = await ensureCampaign(ctx.store, graph, id, job, page, body).catch(
      (err: unknown) => {
        throw networkRefusal(err)
      },
    )
    try {
      const { lease } = await answering(
        handOver(ctx.store, jobs.box, userId, id, {
          lease: body.lease,
          page_token: body.page_token,
          results: [],
          uncertain: [],
          cursor: 0,
        }),
      )
      await jobs.kick(id)
      return answer(id, lease, campaignId, page.currency, estimate)
    } catch (err) {
      if (err instanceof LeaseConflict) throw conflict(err)
      throw err
    }
  })
}

/**
 * A failed campaign creation as an answer: the network's marketing error by name, any other refusal by the
 * network as what it is (`network:<class>`, with the network's own text as the message, never mapped to a
 * guessed field), or unreachable.
 */
function networkRefusal(err: unknown): unknown {
  if (err instanceof HttpError || err instanceof MessageNotFound) return err
  const name = marketingOf(err)
  if (name) return new HttpError(409, 'The network refused the campaign.', undefined, `marketing:${name}`)
  if (err instanceof GraphError && err.kind !== 'network' && err.kind !== 'transient')
    return new HttpError(
      422,
      err.message,
      { [err.kind === 'auth' ? 'page_token' : 'network']: [err.message] },
      `network:${err.kind}`,
    )
  return new HttpError(502, NETWORK_UNREACHABLE)
}

function answer(id: string, lease: number, campaignId: string, currency: string, estimate: number) {
  return { id, lease, sender: 'server', campaign_id: campaignId, currency, estimate_minor: estimate }
}
