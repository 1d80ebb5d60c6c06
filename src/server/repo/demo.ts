/** Demo pages of the sandbox that the API must refuse: marked at every start, idempotently. */
import type { Store } from '../db/store.ts'

export interface DemoSeed {
  bannedPageIds: string[]
  trialUsedPageIds: string[]
}

export async function seedDemo(store: Store, seed: DemoSeed): Promise<void> {
  await store.transaction(async (tx) => {
    for (const id of seed.bannedPageIds) {
      await tx.query(
        'INSERT INTO pages (id, banned) VALUES ($1, true) ON CONFLICT (id) DO UPDATE SET banned = true',
        [id],
      )
    }
    for (const id of seed.trialUsedPageIds) {
      // No user: the trial was used by someone outside this installation, so every trial user is refused.
      await tx.query(
        'INSERT INTO pages (id, trial_used) VALUES ($1, true) ON CONFLICT (id) DO UPDATE SET trial_used = true, trial_user_id = NULL',
        [id],
      )
    }
  })
}
