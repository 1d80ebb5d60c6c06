/**
 * `npm start`: the API, the static app and (unless SANDBOX=false) the sandbox on one port. The only place
 * where the sandbox and the API meet.
 */
import { buildApp } from './server/app.ts'
import { ConfigError, loadConfig } from './server/config.ts'
import { sandboxPlugin } from './sandbox/app.ts'

try {
  const config = loadConfig()
  const mounts = config.sandboxEnabled
    ? [
        {
          prefix: '/sandbox',
          plugin: sandboxPlugin({
            policy: config.SANDBOX_POLICY,
            seed: config.SANDBOX_SEED,
            appId: config.FB_APP_ID,
            appSecret: config.FB_APP_SECRET,
            publicUrl: config.publicUrl,
            liveMs: config.SANDBOX_LIVE_MS,
          }),
        },
      ]
    : []
  const app = await buildApp({ config, mounts })
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
