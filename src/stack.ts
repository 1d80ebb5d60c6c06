/**
 * `npm start`: the API, the static app and the sandbox (on by default; off with SANDBOX=false, and in
 * production unless SANDBOX=true) on one port. The only place where the sandbox and the API meet: the
 * sandbox's demo pages that must be refused (banned, trial used) are told to the API here, and both sides
 * share the secret that signs the sandbox checkout's payment events.
 */
import { buildApp } from './server/app.ts'
import { checkStartup, startupFailure } from './server/boot-checks.ts'
import { ConfigError, loadConfig, type ServerConfig } from './server/config.ts'
import { logFormat, prettyLogStream } from './server/http/pretty-log.ts'
import { sandboxPlugin } from './sandbox/app.ts'
import { demoPageIds } from './sandbox/state/demo.ts'

function sandboxMount(config: ServerConfig) {
  return {
    prefix: '/sandbox',
    plugin: sandboxPlugin({
      policy: config.SANDBOX_POLICY,
      seed: config.SANDBOX_SEED,
      largePageConversations: config.SANDBOX_LARGE_PAGE_CONVERSATIONS,
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

let config: ServerConfig | undefined
try {
  config = loadConfig()
  await checkStartup(config)
  const ids = demoPageIds(config.SANDBOX_SEED)
  const logStream =
    logFormat(config, process.stdout.isTTY) === 'pretty' ? prettyLogStream(process.stdout, true) : undefined
  const app = config.sandboxEnabled
    ? await buildApp({
        config,
        logStream,
        mounts: [sandboxMount(config)],
        demo: { bannedPageIds: [ids.banned], trialUsedPageIds: [ids.trialUsed] },
        sandboxWebhookSecret: config.SANDBOX_WEBHOOK_SECRET,
      })
    : await buildApp({ config, logStream })
  const shutdown = () => void app.close().finally(() => process.exit(0))
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
  const address = await app.listen({ host: config.HOST, port: config.PORT })
  const port = new URL(address).port
  // Under `npm run dev` the page to open is Vite's, which scripts/dev.ts prints.
  if (process.env.PAGECAST_DEV_SERVER !== '1')
    console.log(`\n  Pagecast is running at http://localhost:${port}\n`)
} catch (err) {
  const sentence = err instanceof ConfigError ? err.message : config ? startupFailure(err, config) : undefined
  if (sentence) {
    console.error(sentence)
    process.exit(1)
  }
  throw err
}
