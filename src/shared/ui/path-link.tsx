/**
 * A link to an app path given as a plain string (e.g. a page id), navigated client-side. Used where the
 * target route is composed elsewhere, so its typed route id is not known here.
 */
import { useRouter } from '@tanstack/react-router'
import type { AnchorHTMLAttributes, MouseEvent } from 'react'

export function PathLink({
  href,
  onClick,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter()
  function handle(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    router.history.push(href)
  }
  return <a href={href} onClick={handle} {...rest} />
}
