import { afterEach, expect, it, vi } from 'vitest'
import { sendHistoryKeys, sendHistoryQueryOptions, sendReportQueryOptions } from './send-history.ts'

afterEach(() => vi.unstubAllGlobals())

it("names a page's history and a send's report apart, and pages on from each answer's cursor", () => {
  expect(sendHistoryKeys.list('p1')).not.toEqual(sendHistoryKeys.list('p2'))
  expect(sendHistoryQueryOptions('p1').queryKey).toEqual(sendHistoryKeys.list('p1'))
  expect(sendReportQueryOptions('m1').queryKey).toEqual(sendHistoryKeys.report('m1'))
  const next = sendHistoryQueryOptions('p1').getNextPageParam
  expect(next({ data: [], next: 'c2' }, [], undefined, [])).toBe('c2')
  expect(next({ data: [], next: null }, [], undefined, [])).toBeUndefined()
})
