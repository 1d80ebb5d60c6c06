import { useEffect, useState } from 'react'
import { catalogsReady } from '../../../i18n/activate.ts'

let loaded = false

/**
 * Whether the PWA notices' words are loaded, asking for them once a notice has something to say: a visitor
 * who never sees one never downloads them (a signed-in app has them already).
 */
export function usePwaWords(wanted: boolean): boolean {
  const [ready, setReady] = useState(loaded)
  useEffect(() => {
    if (!wanted || ready) return
    let live = true
    void catalogsReady(['pwa']).then(() => {
      loaded = true
      if (live) setReady(true)
    })
    return () => {
      live = false
    }
  }, [wanted, ready])
  return ready
}
