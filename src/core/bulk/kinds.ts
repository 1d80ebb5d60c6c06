/**
 * What each kind of job may send, fixed when the job is created and checked by every sender: one line per
 * kind. A marketing job's recipients outside the window are reached by marketing messages of its campaign,
 * which only the server's marketing send path sends; no device ever sends a marketing job, so none of its
 * recipients can go out as an ordinary message outside the window.
 */
import type { JobKind, RecipientWay } from '../contracts/marketing-core.ts'

interface KindRule {
  /** A device (the browser's sender) may send it; otherwise only the server does. */
  device: boolean
  /** The ways its recipients may be reached. */
  ways: readonly RecipientWay[]
}

export const KIND_RULES: Readonly<Record<JobKind, KindRule>> = {
  standard: { device: true, ways: ['standard'] },
  optin_request: { device: true, ways: ['standard'] },
  utility: { device: true, ways: ['standard'] },
  marketing: { device: false, ways: ['standard', 'marketing'] },
}

/** Whether a device may send a job of this kind. */
export function deviceSends(kind: JobKind): boolean {
  return KIND_RULES[kind].device
}

/** The kinds a device may send (for a query). */
export const DEVICE_KINDS: readonly JobKind[] = (Object.keys(KIND_RULES) as JobKind[]).filter(deviceSends)

/** Whether a recipient reached by `way` (absent: standard) belongs in a job of this kind. */
export function kindReaches(kind: JobKind, way: RecipientWay | undefined): boolean {
  return KIND_RULES[kind].ways.includes(way ?? 'standard')
}

/** Whether a device may send this recipient of a job of this kind. */
export function deviceMaySend(kind: JobKind, way: RecipientWay | undefined): boolean {
  return deviceSends(kind) && kindReaches(kind, way) && (way ?? 'standard') !== 'marketing'
}
