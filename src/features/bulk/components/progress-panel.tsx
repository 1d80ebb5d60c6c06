/** The "Messages" panel of bulk progress cards, shown in every tab. */
export function BulkProgressPanel() {
  return null
}
