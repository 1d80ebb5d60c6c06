/** A component test's React root: on a fresh element of the page for each test, unmounted and removed after it. */
import { afterEach, beforeEach } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export interface TestRoot {
  /** The current test's root. */
  readonly root: Root
  /** The element it renders into. */
  readonly host: HTMLElement
}

/** Registers the hooks; read `root` and `host` inside a test. */
export function reactRootPerTest(): TestRoot {
  let root: Root | undefined
  let host: HTMLElement | undefined
  beforeEach(() => {
    host = document.createElement('div')
    document.body.append(host)
    root = createRoot(host)
  })
  afterEach(() => {
    act(() => root?.unmount())
    host?.remove()
    root = undefined
    host = undefined
  })
  return {
    get root() {
      if (!root) throw new Error('the React root exists only inside a test')
      return root
    },
    get host() {
      if (!host) throw new Error('the React root exists only inside a test')
      return host
    },
  }
}
