/**
 * `npm start`: the API, the static app and the sandbox (on by default; off with SANDBOX=false, and in
 * production unless SANDBOX=true) on one port. The only place where the sandbox and the API meet: the
 * sandbox's demo pages that must be refused (banned, trial used) are told to the API here, and both sides
 * share the secret that signs the sandbox checkout's payment events.
 */
import { buildApp } from './server/app.ts'
import { ConfigError, loadConfig, type ServerConfig } from './server/config.ts'
import { sandboxPlugin } from './sandbox/app.ts'
import { demoPageIds } from './sandbox/state/demo.ts'

function sandboxMount(config: ServerConfig) {
  return {
    prefix: '/sandbox',
    plugin: sandboxPlugin({
      policy: config.SANDBOX_POLICY,
      seed: config.SANDBOX_SEED,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      publicUrl: config.publicUrl,
      liveMs: config.SANDBOX_LIVE_MS,
      messengerWebhookUrl: config.SANDBOX_MESSENGER_WEBHOOK_URL || undefined,
      humanAgent: config.HUMAN_AGENT_ENABLED,
      paymentWebhookUrl: '/api/v2/payments/webhook',
      paymentWebhookSecret: config.SANDBOX_WEBHOOK_SECRET,
    }),
  }
}

try {
  const config = loadConfig()
  const ids = demoPageIds(config.SANDBOX_SEED)
  const app = config.sandboxEnabled
    ? await buildApp({
        config,
        mounts: [sandboxMount(config)],
        demo: { bannedPageIds: [ids.banned], trialUsedPageIds: [ids.trialUsed] },
        sandboxWebhookSecret: config.SANDBOX_WEBHOOK_SECRET,
      })
    : await buildApp({ config })
  const shutdown = () => void app.close().finally(() => process.exit(0))
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
  const address = await app.listen({ host: config.HOST, port: config.PORT })
  const port = new URL(address).port
  console.log(`\n  Pagecast is running at http://localhost:${port}\n`)
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}
