/** The Pagecast mark: a speech bubble with a broadcast wave. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true">
      <rect width="48" height="48" rx="12" className="fill-brand-600" />
      <path
        d="M12 16a4 4 0 0 1 4-4h16a4 4 0 0 1 4 4v11a4 4 0 0 1-4 4h-9l-6 5v-5h-1a4 4 0 0 1-4-4Z"
        fill="#fff"
      />
      <path d="M19 22h10M19 26h6" stroke="#4f46e5" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  )
}
