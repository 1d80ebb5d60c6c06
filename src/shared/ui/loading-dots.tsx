/** Three pulsing dots: the full-screen loading state (docs/product-rules.md#login-screen). */
import { useLingui } from '@lingui/react/macro'

export function LoadingDots({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useLingui()
  const dots = (
    <span
      role="status"
      aria-label={t`Loading...`}
      className="inline-flex items-center gap-2"
      data-testid="loading-dots"
    >
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-3 animate-pulse rounded-full bg-brand-600"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  )
  if (!fullScreen) return dots
  return <div className="grid min-h-dvh place-items-center bg-slate-50">{dots}</div>
}
