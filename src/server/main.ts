/** Runs the product API alone (production: the sandbox is off and GRAPH_URL points at the real network). */
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'

try {
  const config = loadConfig()
  const app = await buildApp({ config })
  await app.listen({ host: config.HOST, port: config.PORT })
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}
