import { describe, expect, it } from 'vitest'
import { readSidebarCollapsed } from './sidebar-setting.ts'

const storage = (value: string | null) => ({ getItem: () => value })

describe('sidebar setting', () => {
  it('is collapsed when nothing was chosen yet', () => {
    expect(readSidebarCollapsed(storage(null))).toBe(true)
  })
  it('stays open once the user opened it', () => {
    expect(readSidebarCollapsed(storage('false'))).toBe(false)
    expect(readSidebarCollapsed(storage('true'))).toBe(true)
  })
})
