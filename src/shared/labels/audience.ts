/**
 * Who a label audience takes: customers with any of the chosen labels, or with all of them. Pure.
 */

export type LabelMatch = 'any' | 'all'

export interface LabelAudience {
  match: LabelMatch
  /** The chosen label ids; none means no label filter. */
  labelIds: readonly string[]
}

export function inLabelAudience(audience: LabelAudience, labelsOfCustomer: readonly string[] | undefined) {
  if (audience.labelIds.length === 0) return true
  const mine = labelsOfCustomer ?? []
  return audience.match === 'all'
    ? audience.labelIds.every((id) => mine.includes(id))
    : audience.labelIds.some((id) => mine.includes(id))
}

/** How many of the customers carry each label. */
export function labelCounts(
  customerIds: readonly string[],
  labelsOf: ReadonlyMap<string, readonly string[]>,
): Map<string, number> {
  const counts = new Map<string, number>()
  for (const id of customerIds)
    for (const label of labelsOf.get(id) ?? []) counts.set(label, (counts.get(label) ?? 0) + 1)
  return counts
}
