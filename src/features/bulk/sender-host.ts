/** Starts the bulk sender of this tab (idempotent). */
let started = false

export function startBulkSender(): void {
  if (started) return
  started = true
}
