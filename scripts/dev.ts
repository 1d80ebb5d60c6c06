/** `npm run dev`: the API and sandbox on PORT (8080) and Vite with hot reload on 5173, proxying to them. */
import { spawn } from 'node:child_process'

const port = process.env.PORT ?? '8080'
const children = [
  spawn('npx', ['tsx', 'watch', 'src/stack.ts'], {
    stdio: 'inherit',
    env: { SANDBOX_LIVE_MS: '45000', ...process.env, PORT: port, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...process.env, DEV_API_URL: `http://localhost:${port}` } }),
]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
