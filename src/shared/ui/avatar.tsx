import { useState } from 'react'
import defaultAvatar from './default-avatar.svg'

/**
 * A person's picture, replaced by the default image when there is none or it cannot load (offline, expired
 * URL; docs/product-rules.md#inbox).
 */
export function Avatar({
  src,
  size = 40,
  className = '',
}: {
  src?: string
  size?: number
  /** Extra classes, e.g. a smaller size on some screens (with `!`, as the size is an inline style). */
  className?: string
}) {
  const [failed, setFailed] = useState(false)
  const style = { width: size, height: size }
  const fallback = !src || failed
  return (
    <img
      src={fallback ? defaultAvatar : src}
      alt=""
      style={style}
      loading="lazy"
      decoding="async"
      data-testid={fallback ? 'avatar-fallback' : undefined}
      className={`shrink-0 rounded-full bg-gray-100 object-cover ${className}`}
      onError={() => setFailed(true)}
    />
  )
}
