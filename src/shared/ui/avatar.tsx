import { useState } from 'react'

/** A person's or page's picture, replaced by an initial when the image cannot load (offline, expired URL). */
export function Avatar({ src, name, size = 40 }: { src?: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  const style = { width: size, height: size }
  if (!src || failed) {
    return (
      <span
        aria-hidden="true"
        data-testid="avatar-fallback"
        style={style}
        className="flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700"
      >
        {Array.from(name.trim())[0]?.toLocaleUpperCase() ?? '?'}
      </span>
    )
  }
  return (
    <img
      src={src}
      alt=""
      style={style}
      loading="lazy"
      decoding="async"
      className="shrink-0 rounded-full bg-gray-100 object-cover"
      onError={() => setFailed(true)}
    />
  )
}
