/**
 * The device's lease and its fencing on every store (PGlite always, PostgreSQL with TEST_DATABASE_URL): one
 * holder at a time, a record of an earlier epoch refused, and a "keep sending" job whose device died between a
 * send and its report finished by the server with everyone messaged once.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ScriptedGraph } from '../../core/testing/sender-cases.ts'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import { type TestApp, bulkJobWithRecipients, onEveryStore, startTestApp } from '../testing/harness.ts'
import { takeLapsed } from './lease.ts'
import { runSlice, type ServerSenderDeps } from './server-sender.ts'
import { tokenBox } from './token-box.ts'

/** How often the network received the text for a recipient. */
const times = (graph: ScriptedGraph, recipientId: string) =>
  graph.delivered.filter((d) => d.recipientId === recipientId).length

onEveryStore('the device lease', (kind) => {
  let t: TestApp
  let n = 0
  const key = randomBytes(32)
  const box = tokenBox(key)
  beforeAll(async () => {
    // The app seals the page token with this key; the test's server sender opens it with the same.
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'false', TOKEN_ENCRYPTION_KEY: key.toString('base64') })
  })
  afterAll(() => t.close())

  async function job(count: number) {
    const fb = `${kind === 'pglite' ? 7 : 8}20${++n}`
    const { id, who } = await bulkJobWithRecipients(t.app, fb, count, { text: 'Hello there' })
    const call = async (path: string, payload: unknown) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v2/messages/${id}/${path}`,
        headers: who.auth,
        payload: payload as object,
      })
      return { status: res.statusCode, body: res.json() as Record<string, unknown> }
    }
    return { id, fb, who, call }
  }

  const lapse = (id: string) =>
    t.app.store.query(
      "UPDATE messages SET lease_until = now() - interval '1 second', busy_until = NULL WHERE id = $1",
      [id],
    )

  const touch = (r: string, epoch: number) => ({
    _method: 'PUT',
    status: 'OK',
    recipient_id: r,
    sent_as_branded: false,
    epoch,
  })

  function deps(graph: SenderGraph): ServerSenderDeps {
    return {
      store: t.app.store,
      graph,
      box,
      notify: async () => undefined,
      now: Date.now,
      random: () => 0,
      sleep: async () => undefined,
      pacingScale: 0.001,
      settleMs: 0,
    }
  }

  it('gives the lease to one device at a time and refuses the records of an earlier holder', async () => {
    const { id, call } = await job(3)
    const a = await call('lease', { epoch: null })
    expect(a).toMatchObject({ status: 200, body: { epoch: 1, sender: 'device', uncertain: [] } })
    expect((await call('lease', { epoch: 1 })).body).toMatchObject({ epoch: 1 })
    // Another device, while the lease runs: refused, the holder named.
    const b = await call('lease', { epoch: null })
    expect(b).toMatchObject({ status: 409, body: { code: 'lease_conflict', errors: { sender: ['device'] } } })
    expect((await call('reserve', { epoch: 1, recipients: [{ recipient_id: 'r0' }] })).status).toBe(200)
    // The lease lapses (the tab froze): the other device takes it with the next epoch, and learns of r0.
    await lapse(id)
    const taken = await call('lease', { epoch: null })
    expect(taken.body).toMatchObject({ epoch: 2, uncertain: [{ recipient_id: 'r0' }] })
    // The first holder wakes: its reservation, its result and its heartbeat are refused.
    expect((await call('reserve', { epoch: 1, recipients: [{ recipient_id: 'r1' }] })).status).toBe(409)
    expect((await call('touch', touch('r0', 1))).status).toBe(409)
    expect((await call('lease', { epoch: 1 })).status).toBe(409)
    expect((await call('touch', touch('r0', 2))).status).toBe(200)
  })

  it('gives the same browser profile its lease back at once, fencing its old worker, while another device waits', async () => {
    const { id, call } = await job(3)
    const first = await call('lease', { epoch: null, holder: 'profile-a-0001' })
    expect(first.body).toMatchObject({ epoch: 1 })
    expect((await call('reserve', { epoch: 1, recipients: [{ recipient_id: 'r0' }] })).status).toBe(200)
    // The tab reloads before its worker kept the epoch: the same profile asks again, without one.
    const again = await call('lease', { epoch: null, holder: 'profile-a-0001' })
    expect(again).toMatchObject({ status: 200, body: { epoch: 2, uncertain: [{ recipient_id: 'r0' }] } })
    // The old worker's records are refused from now on; the new one's are taken.
    expect((await call('touch', touch('r0', 1))).status).toBe(409)
    expect((await call('lease', { epoch: 1, holder: 'profile-a-0001' })).status).toBe(409)
    expect((await call('touch', touch('r0', 2))).status).toBe(200)
    // Another device (or a client that names no holder) still waits for the lease to lapse.
    const other = await call('lease', { epoch: null, holder: 'profile-b-0002' })
    expect(other).toMatchObject({ status: 409, body: { code: 'lease_conflict' } })
    expect((await call('lease', { epoch: null })).status).toBe(409)
    // The holder's heartbeat renews its own epoch, and the profile stays the holder.
    expect((await call('lease', { epoch: 2 })).body).toMatchObject({ epoch: 2 })
    expect((await call('lease', { epoch: null, holder: 'profile-a-0001' })).body).toMatchObject({ epoch: 3 })
    await lapse(id)
    expect((await call('lease', { epoch: null, holder: 'profile-b-0002' })).body).toMatchObject({ epoch: 4 })
    const bad = await call('lease', { epoch: null, holder: 'no spaces allowed' })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors as object)).toContain('holder')
  })

  it("publishes a device's results on the owner's event stream, at most every 2 s, and its end at once", async () => {
    const { id, call } = await job(3)
    const progress = async () =>
      (
        await t.app.store.query<{ data: Record<string, unknown> }>(
          `SELECT data FROM owner_events WHERE type = 'bulk_progress' AND data->>'messageId' = $1`,
          [id],
        )
      ).map((e) => e.data)
    const { epoch } = (await call('lease', { epoch: null })).body as { epoch: number }
    expect((await call('touch', touch('r0', epoch))).status).toBe(200)
    // Only the newest of a job is kept.
    expect(await progress()).toEqual([
      expect.objectContaining({ messageId: id, sent: 1, total: 3, state: 'running', sender: 'device' }),
    ])
    // Within the throttle the next result waits, then is published without a further result.
    expect((await call('touch', touch('r1', epoch))).status).toBe(200)
    expect(await progress()).toEqual([expect.objectContaining({ sent: 1 })])
    await expect
      .poll(progress, { timeout: 5_000, interval: 200 })
      .toEqual([expect.objectContaining({ sent: 2 })])
    expect((await call('touch', touch('r2', epoch))).status).toBe(200)
    expect((await call('state', { state: 'finished' })).status).toBe(200)
    expect(await progress()).toEqual([
      expect.objectContaining({ sent: 3, state: 'finished', sender: 'device' }),
    ])
  })

  it('answers 422 naming the field for a malformed lease or reservation', async () => {
    const { call } = await job(1)
    const bad = await call('lease', { epoch: -1 })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors as object)).toContain('epoch')
    const none = await call('reserve', { epoch: 1, recipients: [] })
    expect(none.status).toBe(422)
    expect(Object.keys(none.body.errors as object)).toContain('recipients')
  })

  it('refuses a reservation once the lease lapsed, even to its holder, and a lapsed job without "keep sending" stays', async () => {
    const { id, call } = await job(2)
    await call('lease', { epoch: null })
    await lapse(id)
    expect((await call('reserve', { epoch: 1, recipients: [{ recipient_id: 'r0' }] })).status).toBe(409)
    expect(await takeLapsed(t.app.store)).not.toContain(id)
    // Nobody took it: its holder renews the same epoch and goes on.
    expect((await call('lease', { epoch: 1 })).body).toMatchObject({ epoch: 1 })
    expect((await call('reserve', { epoch: 1, recipients: [{ recipient_id: 'r0' }] })).status).toBe(200)
  })

  it('finishes a "keep sending" job whose device died mid-send: nobody twice, nobody skipped, stale records refused', async () => {
    const runs = 9
    let refused = 0
    let duplicates = 0
    for (let run = 0; run < runs; run++) {
      const { id, fb, call } = await job(4)
      const graph = new ScriptedGraph(fb, [], (r) => `c${r}`)
      const granted = await call('lease', {
        epoch: null,
        keep_sending: true,
        page_token: 'page-token-secret',
      })
      const epoch = granted.body.epoch as number
      // The device sends `done` recipients fully, then dies at one of three points with the next one.
      const done = run % 3
      const dies = (['after_reserve', 'after_send', 'after_touch'] as const)[run % 3]
      for (let i = 0; i < done; i++) {
        expect((await call('reserve', { epoch, recipients: [{ recipient_id: `r${i}` }] })).status).toBe(200)
        await graph.send(fb, 't', { recipientId: `r${i}`, messagingType: 'RESPONSE', text: 'Hello there' })
        expect((await call('touch', touch(`r${i}`, epoch))).status).toBe(200)
      }
      const last = `r${done}`
      await call('reserve', { epoch, recipients: [{ recipient_id: last }] })
      if (dies !== 'after_reserve')
        await graph.send(fb, 't', { recipientId: last, messagingType: 'RESPONSE', text: 'Hello there' })
      if (dies === 'after_touch') await call('touch', touch(last, epoch))
      // No goodbye: the lease lapses and the server takes the job.
      await lapse(id)
      expect(await takeLapsed(t.app.store)).toContain(id)
      let outcome = await runSlice(deps(graph), id)
      while (outcome.kind === 'continue') {
        await t.app.store.query('UPDATE messages SET next_send_at = NULL WHERE id = $1', [id])
        outcome = await runSlice(deps(graph), id)
      }
      expect(outcome).toEqual({ kind: 'done', why: 'finished' })
      // The dead device's late records: its result and its next reservation are refused.
      for (const res of [
        await call('touch', touch(last, epoch)),
        await call('reserve', { epoch, recipients: [{ recipient_id: 'r3' }] }),
        await call('lease', { epoch, keep_sending: true }),
      ])
        if (res.status === 409) refused++
      for (let i = 0; i < 4; i++) {
        expect(times(graph, `r${i}`)).toBe(1)
        duplicates += times(graph, `r${i}`) - 1
      }
      const counts = (
        await t.app.store.query<{ ok_count: number }>('SELECT ok_count FROM messages WHERE id = $1', [id])
      )[0]
      expect(counts?.ok_count).toBe(4)
    }
    expect(refused).toBe(runs * 3)
    expect(duplicates).toBe(0)
    console.info(`fencing: ${refused} stale records refused, ${duplicates} duplicates over ${runs} runs`)
  }, 120_000)
})
