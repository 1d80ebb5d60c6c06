/**
 * The pages' custom labels (the Custom Labels API): each page's labels and the people (PSIDs) each label is
 * on. Seeded on the demo customers, so a page opens with labels set "in the Page Inbox".
 */
import type { DemoConversation, DemoPage } from './demo.ts'
import { mulberry32, numericId, subSeed } from './prng.ts'

export interface SandboxLabel {
  id: string
  pageId: string
  name: string
  /** PSIDs the label is on. */
  users: Set<string>
  createdMs: number
}

/** The labels each demo page starts with, and how often a customer carries each. */
export const DEMO_LABELS: readonly { name: string; rate: number }[] = [
  { name: 'VIP', rate: 0.08 },
  { name: 'Wholesale', rate: 0.05 },
  { name: 'Follow up', rate: 0.1 },
]

export class LabelBook {
  private byId = new Map<string, SandboxLabel>()
  private counter = 0

  constructor(private readonly seed: number) {}

  /** Seeds a page's labels on its customers (deterministic for a seed). */
  seedPage(page: DemoPage, conversations: readonly DemoConversation[], startMs: number): void {
    const rng = mulberry32(subSeed(this.seed, `labels:${page.id}`))
    for (const [i, { name, rate }] of DEMO_LABELS.entries()) {
      const label: SandboxLabel = {
        id: numericId(rng, 16),
        pageId: page.id,
        name,
        users: new Set(),
        createdMs: startMs - (DEMO_LABELS.length - i) * 86_400_000,
      }
      for (const c of conversations) if (rng() < rate) label.users.add(c.customer.id)
      this.byId.set(label.id, label)
    }
  }

  get(id: string): SandboxLabel | undefined {
    return this.byId.get(id)
  }

  /** Oldest first, like the Page Inbox lists them. */
  ofPage(pageId: string): SandboxLabel[] {
    return [...this.byId.values()].filter((l) => l.pageId === pageId)
  }

  ofUser(pageId: string, psid: string): SandboxLabel[] {
    return this.ofPage(pageId).filter((l) => l.users.has(psid))
  }

  create(pageId: string, name: string, nowMs = Date.now()): SandboxLabel {
    this.counter++
    const id = `17${String(nowMs).slice(-9)}${String(this.counter).padStart(5, '0')}`
    const label: SandboxLabel = { id, pageId, name, users: new Set(), createdMs: nowMs }
    this.byId.set(id, label)
    return label
  }

  delete(id: string): boolean {
    return this.byId.delete(id)
  }

  /** The page's label of that name (case-insensitive), as the Page Inbox finds it. */
  named(pageId: string, name: string): SandboxLabel | undefined {
    const key = name.trim().toLocaleLowerCase()
    return this.ofPage(pageId).find((l) => l.name.toLocaleLowerCase() === key)
  }
}
