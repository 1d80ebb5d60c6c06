/** The real pacing (scale 1): consecutive sends are 800–1500 ms apart, plus the measured request time. */
import { bulkTest, expect, login, sentLog, startSend, verifyJob, waitForCard } from './bulk-support.ts'

const test = bulkTest({ PACING_SCALE: '1' })

test('consecutive bulk sends are spaced by the spec pacing of 800 to 1500 ms', async ({ page, baseURL }) => {
  test.setTimeout(150_000)
  await login(page)
  // Measure the time of one request the sender makes per recipient besides the send itself (the touch).
  const t0 = Date.now()
  await fetch(`${baseURL}/api/v2/health`)
  const requestMs = Date.now() - t0
  const check = await startSend(page, baseURL!, 'Paced')
  await waitForCard(page, 'finished', 120_000)
  await verifyJob(page, check)
  const times = (await sentLog(baseURL!)).filter((s) => s.text === 'Paced').map((s) => Date.parse(s.at))
  expect(times.length).toBeGreaterThan(5)
  const gaps = times.slice(1).map((t, i) => t - times[i]!)
  console.log(`pacing gaps (ms): ${gaps.join(', ')}; request time ${requestMs} ms`)
  // Upper bound: the wait, the touch and bookkeeping, the next send's own request.
  const slack = Math.max(250, requestMs * 4)
  for (const gap of gaps) {
    expect(gap).toBeGreaterThanOrEqual(800)
    expect(gap).toBeLessThanOrEqual(1500 + slack)
  }
})
