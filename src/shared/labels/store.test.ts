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

  it('stores what it read a few dozen customers at a time, not two writes per customer', async () => {
    const graph = new FakeLabels()
    const customers = Array.from({ length: 100 }, (_, i) => `c${i}`)
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
    expect(writes).toBeLessThanOrEqual(5)
    expect(progress.at(-1)).toBe(100)
    const labels = await labelsByCustomer('P')
    expect(labels.size).toBe(100)
    expect(labels.get('c3')).toEqual(['11'])
    expect(labels.get('c4')).toEqual([])
  })
})
