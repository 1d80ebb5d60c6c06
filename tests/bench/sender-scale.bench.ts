/**
 * How the server sender grows with the jobs it carries at once: `server-sender.bench.ts` on PostgreSQL with
 * 100, 300 and 1,000 concurrent jobs of 10 recipients (BENCH_SCALE_JOBS), one run each, and a table of the
 * API process's CPU per message, its peak memory and the wall time beside the goals of 100 jobs (3 ms of CPU
 * per message, 250 MB). Needs `TEST_DATABASE_URL`. Figures, not a timed test.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const SERVER = process.env.TEST_DATABASE_URL
if (!SERVER) {
  console.log('  skipped: set TEST_DATABASE_URL to a PostgreSQL server')
  process.exit(0)
}
const steps = (process.env.BENCH_SCALE_JOBS ?? '100,300,1000').split(',').map(Number)

interface Figures {
  jobs: number
  messages: number
  finished_jobs: number
  delivered_by_sandbox_log: number
  wall_s: number
  cpu_ms_per_message: number
  peak_rss_mb: number
  rss_before_send_mb: number
  load_1min: number
}

const rows: Figures[] = []
for (const jobs of steps) {
  const r = spawnSync('npx', ['tsx', join(import.meta.dirname, 'server-sender.bench.ts')], {
    env: { ...process.env, BENCH_DB: 'postgres', BENCH_JOBS: String(jobs) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const line = r.stdout.split('\n').find((l) => l.startsWith('figures '))
  if (r.status !== 0 || !line) {
    console.error(r.stdout.slice(-2000), r.stderr.slice(-2000))
    console.error(`  ${jobs} jobs: the run failed (exit ${r.status})`)
    process.exit(1)
  }
  const f = JSON.parse(line.slice('figures '.length)) as Figures
  rows.push(f)
  console.log(
    `  ${String(jobs).padStart(5)} jobs, ${f.messages} messages (${f.delivered_by_sandbox_log} delivered, ${f.finished_jobs} jobs finished): ` +
      `cpu ${f.cpu_ms_per_message} ms per message, peak rss ${f.peak_rss_mb} MB (${f.rss_before_send_mb} MB before), wall ${f.wall_s} s, load ${f.load_1min}`,
  )
}
const first = rows[0]!
const last = rows.at(-1)!
console.log(
  `  from ${first.jobs} to ${last.jobs} jobs: cpu per message x${(last.cpu_ms_per_message / first.cpu_ms_per_message).toFixed(2)}, ` +
    `memory during the send +${last.peak_rss_mb - last.rss_before_send_mb} MB against +${first.peak_rss_mb - first.rss_before_send_mb} MB ` +
    `(goals at 100 jobs: 3 ms, 250 MB)`,
)
