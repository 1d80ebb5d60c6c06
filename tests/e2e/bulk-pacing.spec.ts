/** The real pacing (scale 1): consecutive sends are at least 800 ms apart, with random waits. */
import { bulkTest, expect, login, sentLog, startSend, verifyJob, waitForCard } from './bulk-support.ts'

const test = bulkTest({ PACING_SCALE: '1' })

test('consecutive bulk sends are never closer than the 800 ms of the pacing, and the waits vary', async ({ page, baseURL }) => {
  test.setTimeout(150_000)
  await login(page)
  const check = await startSend(page, baseURL!, 'Paced')
  await waitForCard(page, 'finished', 120_000)
  await verifyJob(page, check)
  const times = (await sentLog(baseURL!)).filter((s) => s.text === 'Paced').map((s) => Date.parse(s.at))
  expect(times.length).toBeGreaterThan(5)
  const gaps = times.slice(1).map((t, i) => t - times[i]!)
  console.log(`pacing gaps (ms): ${gaps.join(', ')}`)
  // Only the lower bound is judged here: a busy machine can lengthen a gap but never shorten it. That each wait
  // is drawn between 800 and 1500 ms is proven without a clock in src/core/bulk/pacer.test.ts (the draw).
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(800)
  // Random waits, not a fixed one: uniform draws over 700 ms spread by more than 100 ms all but surely.
  expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(100)
})
