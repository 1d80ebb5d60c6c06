import { beforeEach, describe, expect, it } from 'vitest'
import { Dexie } from 'dexie'
import { db } from '../../device/db/db.ts'
import type { LabelsGraph, PageLabel } from '../../core/graph/labels.ts'
import {
  deleteLabel,
  ensureLabel,
  labelsByCustomer,
  readCustomersLabels,
  refreshPageLabels,
  setLabel,
} from './store.ts'

/** The network's labels of one page, as the Custom Labels API answers them. */
class FakeLabels implements LabelsGraph {
  labels: PageLabel[] = [{ id: '11', name: 'VIP' }]
  on = new Map<string, Set<string>>([['11', new Set(['p1'])]])
  created = 0
  userReads = 0
  /** The size of each batched read. */
  batches: number[] = []
  /** Customers the network refuses to answer for. */
  refused = new Set<string>()
  async pageLabels() {
    return [...this.labels]
  }
  async createLabel(_page: string, _token: string, name: string) {
    const id = String(20 + ++this.created)
    this.labels.push({ id, name })
    return id
  }
  async deleteLabel(id: string) {
    this.labels = this.labels.filter((l) => l.id !== id)
    this.on.delete(id)
  }
  async addLabel(id: string, _token: string, psid: string) {
    if (!this.on.has(id)) this.on.set(id, new Set())
    this.on.get(id)!.add(psid)
  }
  async removeLabel(id: string, _token: string, psid: string) {
    this.on.get(id)?.delete(psid)
  }
  async userLabels(psid: string) {
    this.userReads++
    return this.labels.filter((l) => this.on.get(l.id)?.has(psid))
  }
  async usersLabels(psids: readonly string[]) {
    // Later batches answer first, so reads overlap the writes of others.
    const n = this.batches.push(psids.length)
    await new Promise((r) => setTimeout(r, Math.max(0, 30 - 10 * n)))
    const out = new Map<string, PageLabel[]>()
    for (const psid of psids) if (!this.refused.has(psid)) out.set(psid, await this.userLabels(psid))
    return out
  }
}

beforeEach(async () => {
  await db.pageLabels.clear()
  await db.customerLabels.clear()
})

describe('the page labels on the device', () => {
  it('reuses a label of the same name whatever its case, and creates one the page has not', async () => {
    const graph = new FakeLabels()
    await refreshPageLabels(graph, 'P', 't')
    expect(await ensureLabel(graph, 'P', 't', '  vip ')).toEqual({ id: '11', name: 'VIP' })
    expect(graph.created).toBe(0)
    expect(await ensureLabel(graph, 'P', 't', 'Talla  M')).toEqual({ id: '21', name: 'Talla M' })
    expect(graph.created).toBe(1)
  })

  it('keeps each customer’s labels as the network took them, and a deleted label off everyone', async () => {
    const graph = new FakeLabels()
    await setLabel(graph, 'P', 't', '11', ['p2', 'p3'], true)
    await setLabel(graph, 'P', 't', '11', ['p3'], false)
    expect(Object.fromEntries(await labelsByCustomer('P'))).toEqual({ p2: ['11'], p3: [] })
    expect([...graph.on.get('11')!].sort()).toEqual(['p1', 'p2'])
    await deleteLabel(graph, 'P', 't', '11')
    expect(Object.fromEntries(await labelsByCustomer('P'))).toEqual({ p2: [], p3: [] })
  })

  it('reads only the customers whose labels were not read lately, reporting its progress', async () => {
    const graph = new FakeLabels()
    const progress: number[] = []
    await readCustomersLabels(graph, 'P', 't', ['p1', 'p2', 'p1'], {
      onProgress: (done) => progress.push(done),
    })
    expect(graph.userReads).toBe(2)
    expect(progress.at(-1)).toBe(2)
    expect((await labelsByCustomer('P')).get('p1')).toEqual(['11'])
    await readCustomersLabels(graph, 'P', 't', ['p1', 'p2'])
    expect(graph.userReads).toBe(2)
    await readCustomersLabels(graph, 'P', 't', ['p1'], { now: Date.now() + 11 * 60_000 })
    expect(graph.userReads).toBe(3)
  })

  it('stores what it read a batch at a time, not two writes per customer', async () => {
    const graph = new FakeLabels()
    const customers = Array.from({ length: 230 }, (_, i) => `c${i}`)
    graph.on.set('11', new Set(customers.filter((_, i) => i % 3 === 0)))
    let writes = 0
    const counted = (parts: Record<string, unknown>) => {
      if (Object.keys(parts).some((p) => /\/(customerLabels|pageLabels)\/$/.test(p))) writes += 1
    }
    Dexie.on('storagemutated', counted)
    const progress: number[] = []
    try {
      await readCustomersLabels(graph, 'P', 't', customers, { onProgress: (done) => progress.push(done) })
    } finally {
      Dexie.on('storagemutated').unsubscribe(counted)
    }
    // Batched reads of 50, each stored in one write, and none lost while another is being written.
    expect(graph.batches).toEqual([50, 50, 50, 50, 30])
    expect(writes).toBe(5)
    // One report before the first read and one per batch stored; batches end in any order (30 may come before
    // a 50), so the counts climb by one batch's size each time.
    expect(progress[0]).toBe(0)
    const steps = progress.slice(1).map((done, i) => done - progress[i]!)
    expect(steps.sort((a, b) => a - b)).toEqual([30, 50, 50, 50, 50])
    const labels = await labelsByCustomer('P')
    expect(labels.size).toBe(230)
    expect(labels.get('c3')).toEqual(['11'])
    expect(labels.get('c4')).toEqual([])
  })

  it('keeps what was known of a customer the network refused, and reads them again the next time', async () => {
    const graph = new FakeLabels()
    await readCustomersLabels(graph, 'P', 't', ['p1', 'p2'])
    graph.on.get('11')!.delete('p1')
    graph.refused.add('p1')
    const progress: number[] = []
    const later = Date.now() + 11 * 60_000
    await readCustomersLabels(graph, 'P', 't', ['p1', 'p2'], {
      now: later,
      onProgress: (d) => progress.push(d),
    })
    expect(progress.at(-1)).toBe(2)
    expect((await labelsByCustomer('P')).get('p1')).toEqual(['11'])
    graph.refused.clear()
    await readCustomersLabels(graph, 'P', 't', ['p1', 'p2'], { now: later })
    expect((await labelsByCustomer('P')).get('p1')).toEqual([])
  })

  it('goes on past a batch the network refused whole', async () => {
    const customers = Array.from({ length: 120 }, (_, i) => `c${i}`)
    const failing = new (class extends FakeLabels {
      override async usersLabels(psids: readonly string[]) {
        if (this.batches.push(psids.length) === 1) throw new Error('offline')
        return super.usersLabels(psids)
      }
    })()
    const progress: number[] = []
    await readCustomersLabels(failing, 'P', 't', customers, { onProgress: (d) => progress.push(d) })
    expect(progress.at(-1)).toBe(120)
    expect((await labelsByCustomer('P')).size).toBe(70)
  })
})
