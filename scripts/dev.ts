/**
 * `npm run dev`: the API and sandbox on PORT (8080) and Vite with hot reload on 5173, proxying to them. The
 * address to open is Vite's (the one with hot reload), so that is the one printed once both are up.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { viteLocalAddress } from './dev-address.ts'

const port = process.env.PORT ?? '8080'
// The tools' own binaries, not `npx`: a stop signal must reach them (npx does not pass it on).
const bin = (name: string) => join('node_modules', '.bin', name)
const api = spawn(bin('tsx'), ['watch', 'src/stack.ts'], {
  stdio: 'inherit',
  env: {
    SANDBOX_LIVE_MS: '45000',
    ...process.env,
    PORT: port,
    PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
    PAGECAST_DEV_SERVER: '1',
  },
})
const vite = spawn(bin('vite'), [], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { ...process.env, DEV_API_URL: `http://localhost:${port}` },
})
let seen = ''
let told = false
vite.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk)
  if (told) return
  seen += chunk.toString()
  const address = viteLocalAddress(seen)
  if (address) {
    told = true
    console.log(`\n  Pagecast (development) is running at ${address}  (API and sandbox on port ${port})\n`)
  }
})
const children = [api, vite]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
