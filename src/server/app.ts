/**
 * Builds the product API (and the static app) as a Fastify instance without listening, so tests call
 * `app.inject()` and `main.ts` / `src/stack.ts` decide how it runs. Extra plugins (the sandbox) are passed in
 * by the composing entry: this module never imports the sandbox.
 */
import { resolve } from 'node:path'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { ApiContext, RateLimits } from './context.ts'
import { migrate } from './db/migrate.ts'
import { ReadCache } from './db/read-cache.ts'
import { type Store, openStore } from './db/store.ts'
import { watchWrites } from './db/write-watch.ts'
import { EventHub, type HubOptions } from './events/hub.ts'
import { type FetchLike, type GraphApi, createGraphApi } from './graph/graph-api.ts'
import { type MarketingGraphPort, createMarketingGraphPort } from './graph/marketing-port.ts'
import { httpFetch } from './graph/http-fetch.ts'
import { type SessionCaller, authenticate } from './http/auth.ts'
import { installErrorHandling, installInputGuard } from './http/errors.ts'
import { loggingOptions } from './http/logging.ts'
import { installSecurityHeaders } from './http/security.ts'
import { installStatic } from './http/static.ts'
import { type DemoSeed, seedDemo } from './repo/demo.ts'
import type { SubscriptionRow } from './repo/subscriptions.ts'
import type { PushPayload } from '../core/contracts/push.ts'
import { paymentProvider } from './payments/select.ts'
import {
  type CustomerMessageEvent,
  type PushDeps,
  type PushOptions,
  type PushOutcome,
  customerMessagePusher,
  notifyCustomerMessage,
  notifyUser,
} from './push/notify.ts'
import { resolveVapidKeys } from './push/vapid.ts'
import { anyVisibleTab } from './repo/presence.ts'
import { databaseRateLimitStore } from './repo/rate-limits.ts'
import { SEND_DELAY_MIN_MS } from '../core/constants/limits.ts'
import { importUploadFolder } from './repo/uploads.ts'
import { marketingRoutes } from './routes/marketing.ts'
import { type BindingCheckDeps, recheckBinding, recheckDueBindings } from './routes/page-access.ts'
import { sendHistoryRoutes } from './routes/send-history.ts'
import { messageRoutes } from './routes/messages.ts'
import { pageRoutes } from './routes/pages.ts'
import { pushRoutes } from './routes/push.ts'
import { recipientRoutes } from './routes/recipients.ts'
import { eventRoutes } from './routes/events.ts'
import { messengerWebhookRoutes } from './routes/messenger-webhook.ts'
import { clientConfigOf, sessionRoutes } from './routes/session.ts'
import { conversationStateRoutes } from './routes/conversation-states.ts'
import { savedReplyRoutes } from './routes/saved-replies.ts'
import { sessionListRoutes } from './routes/sessions.ts'
import { subscriptionRoutes } from './routes/subscriptions.ts'
import { termsRoutes } from './routes/terms.ts'
import { testingRoutes } from './routes/testing.ts'
import { uploadRoutes, uploadedFileRoute } from './routes/upload.ts'
import { userRoutes } from './routes/user.ts'
import { webhookRoutes } from './routes/webhook.ts'
import { WebhookProcessor } from './webhooks/process.ts'
import { pushOwnerNotifier } from './push/job-notices.ts'
import { handoverRoutes } from './routes/handover.ts'
import { marketingJobRoutes } from './routes/marketing-jobs.ts'
import { activeSubscriberToken } from './repo/marketing.ts'
import type { MarketingJobGraph } from './bulk/marketing.ts'
import { createMarketingGraph } from '../core/graph/marketing.ts'
import { scheduledRoutes } from './routes/scheduled.ts'
import { startScheduled } from './bulk/scheduled.ts'
import { loadTokenKey, tokenBox } from './bulk/token-box.ts'
import { startJobQueue } from './bulk/queue.ts'
import type { OwnerNotifier, ServerSenderDeps } from './bulk/server-sender.ts'
import { type Fetch, createGraphClient } from '../core/graph/client.ts'

export interface BuildOptions {
  config: ServerConfig
  /** Plugins registered before the API, each with its own prefix (the sandbox uses `/sandbox`). */
  mounts?: { plugin: FastifyPluginAsync; prefix: string }[]
  /** Demo pages marked at start (idempotent): banned ones are refused, trial-used ones refused to trials. */
  demo?: DemoSeed
  /** Secret the sandbox's checkout page signs its events with; defaults to SANDBOX_WEBHOOK_SECRET. */
  sandboxWebhookSecret?: string
  /** The fetch used for the Graph and Stripe (tests route it in-process). */
  fetch?: FetchLike
  /** Replaces the Graph calls entirely (unit tests). */
  graph?: GraphApi
  /** Replaces the marketing messages Graph calls (unit tests). */
  marketingGraph?: MarketingGraphPort
  /**
   * Per-minute limits: 30 logins and 60 uploads per client address, 30 calls per user of each route that calls
   * the network or stores a list; 10,000 each when NODE_ENV=test.
   */
  rateLimits?: Partial<RateLimits>
  /** Whether one of a user's tabs of the app is visible now (no push then). Default: the tabs' reports. */
  anyVisibleTab?: (userId: string) => Promise<boolean>
  /**
   * How the owner hears that a server-held job finished, stopped or needs them. Default: a log line; the
   * composing entry passes the Web Push sender here.
   */
  notifyOwner?: OwnerNotifier
  /** Test settings of the server sender (a clock, the settle time of uncertain sends, slice length). */
  serverSender?: Partial<Pick<ServerSenderDeps, 'now' | 'sleep' | 'random' | 'settleMs'>> & {
    /** The clock a scheduled send's audience (its 24-hour window) is evaluated with when it starts. */
    audienceNow?: () => number
    sliceMs?: number
    pollingSeconds?: number
  }
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void }
  /** Event stream tuning (tests shorten the heartbeat). */
  events?: HubOptions
  /** The network's Marketing Message API for marketing jobs (tests pass a fake). */
  marketingJobGraph?: MarketingJobGraph
  /** Told of each new customer message a webhook brings; default: the push notifications. */
  onCustomerMessage?: ApiContext['onCustomerMessage']
  /**
   * The scheduled check of page bindings: how often a round runs (default every minute) and how many
   * bindings a round checks at most (default 50). Which bindings are due is PAGE_RECHECK_MINUTES.
   */
  pageChecks?: { everyMs?: number; batch?: number }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's store (tests and the terms CLI reach the data through it). */
    store: Store
    /** Web Push with this instance's keys and store (see `push/notify.ts`). */
    push: {
      notifyCustomerMessage(event: CustomerMessageEvent): Promise<PushOutcome>
      notifyUser(userId: string, payload: PushPayload, options?: PushOptions): Promise<PushOutcome>
    }
    /** Takes up the stored Messenger webhooks (tests wait on `drain()`). */
    webhooks: WebhookProcessor
  }
}

function trustProxy(value: string): boolean | string[] {
  if (value === 'true') return true
  if (value === 'false' || value === '') return false
  return value.split(',').map((v) => v.trim())
}

const JSON_BODY_LIMIT = 1024 * 1024

function defaultRateLimits(config: ServerConfig): RateLimits {
  const test = config.NODE_ENV === 'test'
  return {
    login: config.RATE_LIMIT_LOGIN_PER_MIN ?? (test ? 10_000 : 30),
    upload: config.RATE_LIMIT_UPLOAD_PER_MIN ?? (test ? 10_000 : 60),
    network: config.RATE_LIMIT_NETWORK_PER_MIN ?? (test ? 10_000 : 30),
  }
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, mounts = [] } = options
  const app = Fastify({
    ...loggingOptions(config, options.logStream),
    trustProxy: trustProxy(config.TRUST_PROXY),
    bodyLimit: JSON_BODY_LIMIT,
  })

  const raw = await openStore({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL })
  const { store, log: writes } = watchWrites(raw)
  const events = new EventHub(store, options.events, app.log)
  // Open streams end before the server stops waiting for its connections; then the listening stops.
  app.addHook('preClose', async () => events.endStreams())
  /** Stopped before the store closes (the job queue's workers still write to it). */
  const beforeStoreClose: (() => Promise<void>)[] = []
  app.addHook('onClose', async () => {
    for (const stop of beforeStoreClose) await stop().catch(() => undefined)
    await events.close()
    await store.close()
  })
  try {
    await migrate(store)
    await events.start()
    if (options.demo) await seedDemo(store, options.demo)
    // Images an older version kept in DATA_DIR/uploads move into the shared database.
    if (!config.DATA_DIR.startsWith('memory://'))
      await importUploadFolder(store, resolve(config.DATA_DIR, 'uploads'))
  } catch (err) {
    await app.close()
    throw err
  }

  let vapid
  try {
    vapid = resolveVapidKeys(config)
  } catch (err) {
    await app.close()
    throw err
  }
  if (vapid.source === 'generated')
    app.log.info(
      'Web Push keys generated into DATA_DIR/vapid.json (set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY to use your own)',
    )
  const push: PushDeps = {
    store,
    vapid,
    anyVisibleTab: options.anyVisibleTab ?? ((userId) => anyVisibleTab(store, userId)),
    endpoints: config,
    fetch: options.fetch,
    log: app.log,
  }

  // Every Graph client of the server calls the network through the server's own transport, or a test's fetch.
  const graphFetch: Fetch = options.fetch ?? httpFetch
  // The campaign and send calls of marketing jobs (the shared marketing Graph client; tests pass a fake).
  const marketingJobGraph: MarketingJobGraph =
    options.marketingJobGraph ??
    createMarketingGraph({
      baseUrl: config.graphUrl,
      version: config.GRAPH_VERSION,
      timeoutMs: 30_000,
      fetch: graphFetch,
    })
  // Page tokens of server-held jobs and page bindings, and marketing subscription tokens, are sealed with this key.
  const box = tokenBox(loadTokenKey(config))
  const graphApi =
    options.graph ??
    createGraphApi({
      graphUrl: config.graphUrl,
      version: config.GRAPH_VERSION,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      fetch: graphFetch,
    })
  const bindingChecks: BindingCheckDeps = {
    store,
    graph: graphApi,
    box,
    appId: config.FB_APP_ID,
    // The server sender stops the jobs of a revoked binding; set once the queue runs.
    kick: undefined,
    log: app.log,
  }
  const ctx: ApiContext = {
    config,
    store,
    box,
    recheckBinding: (userId, pageId, token) => recheckBinding(bindingChecks, userId, pageId, token),
    marketingJobGraph,
    graph: graphApi,
    payments: paymentProvider(config, options.sandboxWebhookSecret, options.fetch),
    rateLimits: { ...defaultRateLimits(config), ...options.rateLimits },
    authenticate: authenticate(store, config.SESSION_IDLE_DAYS, {
      cache: new ReadCache<SessionCaller | undefined>(writes, ['sessions', 'users']),
      refresh: raw,
    }),
    subscriptionCache: new ReadCache<SubscriptionRow>(writes, ['subscriptions', 'users', 'terms']),
    vapid,
    push,
    events,
    onCustomerMessage:
      options.onCustomerMessage ??
      // Not awaited: a slow push service must not hold up the webhooks behind this one (it never throws).
      customerMessagePusher(push),
  }

  const webhooks = new WebhookProcessor(store, app.log, box, (notice) => ctx.onCustomerMessage?.(notice))
  app.addHook('preClose', async () => webhooks.stop())
  const marketingGraph =
    options.marketingGraph ??
    createMarketingGraphPort({
      baseUrl: config.graphUrl,
      version: config.GRAPH_VERSION,
      fetch: graphFetch,
    })
  if (config.SERVER_SENDER) {
    const tuning = options.serverSender ?? {}
    const graph = createGraphClient({
      baseUrl: config.graphUrl,
      version: config.GRAPH_VERSION,
      timeoutMs: 30_000,
      fetch: graphFetch,
    })
    // The owner hears of a server-held job that ended or needs them on their devices (Web Push).
    const notify: OwnerNotifier = options.notifyOwner ?? pushOwnerNotifier(push)
    const now = tuning.now ?? Date.now
    // Production pacing is never scaled; only sandbox builds may scale it, as the browser's
    // (docs/decisions.md#production-pacing-is-never-scaled).
    const pacingScale = config.sandboxEnabled ? config.PACING_SCALE : 1
    const queue = await startJobQueue({
      startScheduled: async (id) => {
        await startScheduled(
          { store, box, graph, notify, now: tuning.audienceNow ?? now, recheckBinding: ctx.recheckBinding },
          id,
        )
      },
      store,
      databaseUrl: config.DATABASE_URL,
      concurrency: config.SERVER_SENDER_CONCURRENCY,
      sliceMs: tuning.sliceMs ?? config.JOB_SLICE_SECONDS * 1000,
      leaseMs: config.JOB_LEASE_SECONDS * 1000,
      ...(tuning.pollingSeconds ? { pollingSeconds: tuning.pollingSeconds } : {}),
      log: app.log,
      sender: {
        store,
        box,
        graph,
        notify,
        now,
        random: tuning.random ?? Math.random,
        sleep: tuning.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
        pacingScale,
        settleMs: tuning.settleMs ?? 5_000,
        marketing: {
          graph: marketingJobGraph,
          subscriberToken: (pageId: string, psid: string) => activeSubscriberToken(store, box, pageId, psid),
        },
        recheckBinding: ctx.recheckBinding,
        log: app.log,
      },
    })
    beforeStoreClose.push(() => queue.stop())
    ctx.jobs = {
      box,
      pacingFloorMs: SEND_DELAY_MIN_MS * pacingScale,
      kick: queue.kick,
      schedule: queue.schedule,
      cancel: queue.cancel,
    }
    bindingChecks.kick = (id) => queue.kick(id)
  }

  app.decorate('store', store)
  app.decorate('push', {
    notifyCustomerMessage: (event: CustomerMessageEvent) => notifyCustomerMessage(push, event),
    notifyUser: (userId: string, payload: PushPayload, opts?: PushOptions) =>
      notifyUser(push, userId, payload, opts),
  })
  app.decorate('webhooks', webhooks)
  app.decorateRequest('authUser', null)
  app.decorateRequest('authSessionId', null)
  installSecurityHeaders(app, config)
  installErrorHandling(app)
  installInputGuard(app)
  // Counted in the database, so instances sharing it share the limits.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(store) })

  for (const m of mounts) await app.register(m.plugin, { prefix: m.prefix })

  await app.register(
    async (api) => {
      api.get('/health', async () => ({ ok: true }))
      sessionRoutes(api, ctx)
      sessionListRoutes(api, ctx)
      savedReplyRoutes(api, ctx)
      conversationStateRoutes(api, ctx)
      userRoutes(api, ctx)
      termsRoutes(api, ctx)
      pageRoutes(api, ctx)
      messageRoutes(api, ctx)
      sendHistoryRoutes(api, ctx)
      handoverRoutes(api, ctx)
      marketingJobRoutes(api, ctx)
      scheduledRoutes(api, ctx)
      recipientRoutes(api, ctx)
      marketingRoutes(api, ctx, { graph: marketingGraph, box })
      subscriptionRoutes(api, ctx)
      pushRoutes(api, ctx)
      eventRoutes(api, ctx)
      if (config.TEST_ROUTES && config.sandboxEnabled) testingRoutes(api, ctx)
      await api.register(async (upload) => uploadRoutes(upload, ctx))
      await api.register(async (hook) => webhookRoutes(hook, ctx))
    },
    { prefix: '/api/v2' },
  )
  await app.register(async (hooks) => messengerWebhookRoutes(hooks, ctx, webhooks))
  // Bodies stored before a stop and not yet processed are taken up now, and every half minute (a body another
  // instance stored just before it stopped, or one whose processing failed, is not left waiting).
  const drain = () =>
    void webhooks
      .drain()
      .catch((err: unknown) => app.log.error({ err }, 'messenger webhook processing failed'))
  let sweeper: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    drain()
    sweeper = setInterval(drain, 30_000)
    sweeper.unref()
  })
  app.addHook('preClose', async () => clearInterval(sweeper))
  // The scheduled check of page bindings: each round checks with the network the bindings whose last check is
  // older than PAGE_RECHECK_MINUTES (at most `batch`, oldest first; each instance takes different ones).
  const checks = options.pageChecks ?? {}
  let checking: Promise<unknown> | undefined
  const checkBindings = () => {
    if (checking) return
    checking = recheckDueBindings(bindingChecks, config.PAGE_RECHECK_MINUTES, checks.batch ?? 50)
      .catch((err: unknown) => app.log.error({ err }, 'the scheduled check of page bindings failed'))
      .finally(() => (checking = undefined))
  }
  let checker: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    checker = setInterval(checkBindings, checks.everyMs ?? 60_000)
    checker.unref()
  })
  app.addHook('preClose', async () => {
    clearInterval(checker)
    await checking
  })
  uploadedFileRoute(app, ctx)
  await installStatic(app, config.STATIC_DIR, clientConfigOf(config).social, {
    sourceMaps: config.NODE_ENV !== 'production',
  })
  return app
}
