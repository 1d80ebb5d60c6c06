/**
 * A round picture with a fallback: initials for pages, a default silhouette for people. Pictures are fetched
 * at low priority: on a slow connection they wait behind the code and the answers a screen is drawn from.
 */
import { useState } from 'react'
import { initialsOf } from '../../core/format/text.ts'
import defaultAvatar from './default-avatar.svg'

interface Props {
  src?: string | null
  name: string
  className?: string
}

export function PageAvatar({ src, name, className = 'size-10' }: Props) {
  const [broken, setBroken] = useState(false)
  if (src && !broken) {
    return (
      <img
        src={src}
        alt=""
        fetchPriority="low"
        onError={() => setBroken(true)}
        className={`${className} shrink-0 rounded-full bg-slate-200 object-cover`}
      />
    )
  }
  const initials = initialsOf(name)
  return (
    <span
      aria-hidden="true"
      className={`${className} grid shrink-0 place-items-center rounded-full bg-brand-100 font-semibold text-brand-700`}
    >
      {initials}
    </span>
  )
}

/**
 * The user's avatar: the profile picture, or the default image when none exists
 * (docs/product-rules.md#shared-layout).
 */
export function UserAvatar({ src, className = 'size-9' }: { src?: string | null; className?: string }) {
  const [broken, setBroken] = useState(false)
  return (
    <img
      src={src && !broken ? src : defaultAvatar}
      alt=""
      fetchPriority="low"
      onError={() => setBroken(true)}
      data-testid="user-avatar"
      className={`${className} shrink-0 rounded-full bg-slate-200 object-cover`}
    />
  )
}
