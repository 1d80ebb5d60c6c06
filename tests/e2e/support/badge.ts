import type { Locator } from '@playwright/test'

/**
 * The figure a badge shows (its `data-count`), 0 when no badge is drawn. Read in one look: a badge that goes
 * between a check and a read (its count fell to 0) would leave the read waiting for it.
 */
export function badgeCount(badge: Locator): Promise<number> {
  return badge.evaluateAll((found) => Number(found[0]?.getAttribute('data-count') ?? 0))
}
