/**
 * The sandbox alone on a loopback port, for a benchmark that measures the API's process without the stand-in
 * network's share: started as a child process, it prints `listening <port>` once it answers, and stops on
 * SIGTERM. Settings come as JSON in SANDBOX_OPTIONS (the sandbox's options beyond the current policy and liveMs 0).
 */
import Fastify from 'fastify'
import { sandboxPlugin, type SandboxOptions } from '../../src/sandbox/app.ts'

const options = JSON.parse(process.env.SANDBOX_OPTIONS ?? '{}') as Omit<SandboxOptions, 'policy' | 'liveMs'>
const app = Fastify({ bodyLimit: 10 * 1024 * 1024 })
await app.register(sandboxPlugin({ policy: 'current', liveMs: 0, ...options }), { prefix: '/sandbox' })
const port = Number(process.env.PORT)
await app.listen({ host: '127.0.0.1', port })
console.log(`listening ${port}`)
process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)))
