/**
 * Publishes an element's height as a CSS custom property on the document, kept current while it resizes, so
 * what is drawn elsewhere (the notices, docs/product-rules.md#constants-and-limits) can stand clear of it.
 */
import { useEffect, useRef } from 'react'

export function useHeightVariable<T extends HTMLElement>(name: `--${string}`) {
  const ref = useRef<T>(null)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const root = document.documentElement
    const observer = new ResizeObserver(() =>
      root.style.setProperty(name, `${el.getBoundingClientRect().height}px`),
    )
    observer.observe(el)
    return () => {
      observer.disconnect()
      root.style.removeProperty(name)
    }
  }, [name])
  return ref
}
