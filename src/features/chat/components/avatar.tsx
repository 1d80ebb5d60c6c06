import { useState } from 'react'

/** The customer's picture, replaced by an initial when it cannot load (offline, expired URL). */
export function Avatar({ src, name, size = 40 }: { src?: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  const style = { width: size, height: size }
  if (!src || failed) {
    return (
      <span
        aria-hidden="true"
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
      className="shrink-0 rounded-full bg-gray-100 object-cover"
      onError={() => setFailed(true)}
    />
  )
}
