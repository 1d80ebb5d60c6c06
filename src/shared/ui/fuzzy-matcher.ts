/**
 * The fuzzy name matcher (fuse.js) the home page's search and the inbox filter share. Its code is fetched when
 * a search is first used, not with every start; until it is there the callers match plain parts of names.
 */
import type Fuse from 'fuse.js'
import { useEffect, useState } from 'react'
import { loadOnce } from './load-once.ts'

export type FuzzyMatcher = typeof Fuse

const fuzzy = loadOnce<FuzzyMatcher>(() => import('fuse.js').then((m) => m.default))

/** Fetches the fuzzy matcher (once; again after a failure). */
export const loadFuzzy = fuzzy.load
export const loadedFuzzy = fuzzy.loaded

/** The matcher once a search is `active` and its code has arrived; undefined until then. */
export function useFuzzyMatcher(active: boolean): FuzzyMatcher | undefined {
  const [matcher, setMatcher] = useState(loadedFuzzy)
  useEffect(() => {
    if (!active || matcher) return
    let live = true
    void loadFuzzy().then(
      (m) => live && setMatcher(() => m),
      (err: unknown) => console.error('the fuzzy search could not be loaded', err),
    )
    return () => {
      live = false
    }
  }, [active, matcher])
  return matcher
}
