/** Runs the product API alone (production: the sandbox is off and GRAPH_URL points at the real network). */
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'

try {
  const config = loadConfig()
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
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}
