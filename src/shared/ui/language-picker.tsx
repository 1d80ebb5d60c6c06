/**
 * Chooses the interface language. `onChoose` keeps and activates the choice (`chooseLocale` of src/i18n, which
 * loads the catalogs): shared code takes the locale, it loads none.
 */
import { useLingui } from '@lingui/react/macro'
import { isLocaleCode, type LocaleCode, locales } from '../../core/constants/locales.ts'

export function LanguagePicker({
  onChoose,
  className = '',
}: {
  onChoose: (code: LocaleCode) => void
  className?: string
}) {
  const { t, i18n } = useLingui()
  return (
    <label className={`inline-flex items-center gap-2 text-sm text-slate-700 ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0" fill="currentColor">
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm5.9 7h-2.4a12 12 0 0 0-1-4.4A6 6 0 0 1 15.9 9ZM10 4c.6.8 1.4 2.6 1.5 5h-3C8.6 6.6 9.4 4.8 10 4ZM7.5 4.6A12 12 0 0 0 6.5 9H4.1a6 6 0 0 1 3.4-4.4ZM4.1 11h2.4a12 12 0 0 0 1 4.4A6 6 0 0 1 4.1 11Zm5.9 5c-.6-.8-1.4-2.6-1.5-5h3c-.1 2.4-.9 4.2-1.5 5Zm2.5-.6a12 12 0 0 0 1-4.4h2.4a6 6 0 0 1-3.4 4.4Z" />
      </svg>
      <span className="sr-only">{t`Language`}</span>
      <select
        value={i18n.locale}
        onChange={(e) => {
          const code = e.target.value
          if (isLocaleCode(code)) onChoose(code)
        }}
        className="min-h-11 rounded-md border border-slate-300 bg-white py-1 ps-2 pe-7 text-sm"
      >
        {locales.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  )
}
