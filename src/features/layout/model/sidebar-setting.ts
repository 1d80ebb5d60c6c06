/**
 * The sidebar starts collapsed; the user's choice is kept under `sidebar-collapsed`
 * (docs/product-rules.md#shared-layout).
 */
import { useCallback, useState } from 'react'

export const SIDEBAR_SETTING = 'sidebar-collapsed'

export function readSidebarCollapsed(storage: Pick<Storage, 'getItem'> = localStorage): boolean {
  return storage.getItem(SIDEBAR_SETTING) !== 'false'
}

export function useSidebarCollapsed(): [boolean, (next: boolean) => void] {
  const [collapsed, setCollapsed] = useState(() => readSidebarCollapsed())
  const set = useCallback((next: boolean) => {
    localStorage.setItem(SIDEBAR_SETTING, String(next))
    setCollapsed(next)
  }, [])
  return [collapsed, set]
}
