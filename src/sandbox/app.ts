/** The sandbox: a local stand-in for the social network, mounted by src/stack.ts under /sandbox. */
import type { FastifyPluginAsync } from 'fastify'
import { registerCheckout } from './checkout/routes.ts'
import { newFaults, type SandboxContext, type SandboxOptions } from './context.ts'
import { registerDialog } from './dialog/routes.ts'
import { registerMarketingControl } from './marketing/control.ts'
import { MarketingState } from './marketing/state.ts'
import { graphRoutes } from './routes/graph.ts'
import { PushServiceState, registerPushService } from './push/service.ts'
import { registerInspect } from './routes/inspect.ts'
import { demoPageIds } from './state/demo.ts'
import { SandboxStore } from './state/store.ts'
import { TokenStore } from './state/tokens.ts'
import { registerUtilityControl } from './utility/control.ts'
import { UtilityState } from './utility/state.ts'
import { WebhookSender } from './webhooks.ts'

export type { SandboxOptions } from './context.ts'
export { demoPageIds, type DemoPageIds } from './state/demo.ts'

export function sandboxPlugin(options: SandboxOptions): FastifyPluginAsync {
  return async (app) => {
    const store = new SandboxStore(options.seed, options.startMs ?? Date.now(), options.largePageConversations)
    const ctx: SandboxContext = {
      options,
      store,
      marketing: new MarketingState(options.seed, () => store.startMs, options.largePageConversations),
      utility: new UtilityState(),
      tokens: new TokenStore(),
      faults: newFaults(),
      faultSends: 0,
      push: new PushServiceState(),
      webhooks: new WebhookSender({
        url: options.messengerWebhookUrl,
        appSecret: options.appSecret,
        ownBase: () => {
          const address = app.server.address()
          return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : undefined
        },
        faults: () => ctx.faults,
      }),
    }
    app.addHook('onClose', async () => {
      ctx.webhooks.clear()
      ctx.utility.load()
    })
    const prefix = app.prefix || ''

    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)))
      },
    )

    registerInspect(app, ctx)
    registerMarketingControl(app, ctx)
    registerUtilityControl(app, ctx)
    registerPushService(app, ctx.push)
    registerDialog(app, ctx, prefix)
    registerCheckout(app, ctx, prefix)
    await graphRoutes(app, ctx, prefix)

    if (options.liveMs > 0) {
      const ids = demoPageIds(options.seed)
      const timer = setInterval(() => {
        const conv = ctx.store.liveMessage([ids.small, ids.large])
        const msg = conv?.extra[conv.extra.length - 1]
        if (conv && msg) ctx.webhooks.customerMessage(conv.pageId, conv.customer.id, msg)
      }, options.liveMs)
      timer.unref()
      app.addHook('onClose', async () => clearInterval(timer))
    }
  }
}
