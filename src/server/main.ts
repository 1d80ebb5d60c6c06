/** Runs the product API alone (production: the sandbox is off and GRAPH_URL points at the real network). */
import { buildApp } from './app.ts'
import { checkStartup, startupFailure } from './boot-checks.ts'
import { ConfigError, loadConfig, type ServerConfig } from './config.ts'

let config: ServerConfig | undefined
try {
  config = loadConfig()
  await checkStartup(config)
  const app = await buildApp({ config })
  // A stop signal finishes the requests in flight and closes the store (PGlite writes its files on close).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    })
  }
  await app.listen({ host: config.HOST, port: config.PORT })
} catch (err) {
  const sentence = err instanceof ConfigError ? err.message : config ? startupFailure(err, config) : undefined
  if (sentence) {
    console.error(sentence)
    process.exit(1)
  }
  throw err
}
