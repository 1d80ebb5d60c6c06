import type { LinguiConfig } from '@lingui/conf'
import { locales, sourceLocale } from './src/i18n/locales-table.ts'

/**
 * One catalog per area so each area's strings are translated and reviewed on their own.
 * The app loads all three for the active locale (see src/i18n/activate.ts).
 */
const config: LinguiConfig = {
  sourceLocale,
  locales: locales.map((l) => l.code),
  fallbackLocales: { default: sourceLocale },
  format: 'po',
  orderBy: 'messageId',
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/inbox',
      include: ['<rootDir>/src/features/inbox', '<rootDir>/src/features/chat'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/bulk',
      include: ['<rootDir>/src/features/bulk'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/app',
      include: ['<rootDir>/src'],
      exclude: [
        '<rootDir>/src/features/inbox',
        '<rootDir>/src/features/chat',
        '<rootDir>/src/features/bulk',
        '<rootDir>/src/server',
        '<rootDir>/src/sandbox',
        '<rootDir>/src/locales',
        '**/*.test.*',
      ],
    },
  ],
}

export default config
