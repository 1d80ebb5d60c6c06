import type { LinguiConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'
import { locales, sourceLocale } from './src/core/constants/locales.ts'

/**
 * One catalog per area (start, app, inbox, bulk, marketing, pwa) so each area's strings are translated and reviewed on their own.
 * The start catalog of the active locale loads at start; the others load when wanted (src/i18n/activate.ts).
 */
/**
 * The modules of the login screen and what it shows before a session exists (the entry's static imports that
 * have words; scripts/start-catalog.test.ts keeps the list complete): their words are the start catalog.
 */
export const START_FILES = [
  'src/features/auth/components/login-screen.tsx',
  'src/shared/session/actions.ts',
  'src/shared/ui/language-picker.tsx',
  'src/shared/ui/loading-dots.tsx',
]
/** Marketing screens that live in other areas: read only once a page uses marketing messages. */
const MARKETING_PARTS = [
  '<rootDir>/src/features/bulk/components/budget-section.tsx',
  '<rootDir>/src/features/bulk/components/progress-card-marketing.tsx',
  '<rootDir>/src/features/bulk/model/marketing-error.ts',
  '<rootDir>/src/features/chat/components/ask-to-subscribe-sheet.tsx',
  '<rootDir>/src/features/chat/model/marketing-error.ts',
]

const allCatalogs: LinguiConfig['catalogs'] = [
  {
    path: '<rootDir>/src/locales/{locale}/inbox',
    include: ['<rootDir>/src/features/inbox', '<rootDir>/src/features/chat', '<rootDir>/src/features/labels'],
    exclude: ['**/*.test.*', ...MARKETING_PARTS],
  },
  {
    path: '<rootDir>/src/locales/{locale}/bulk',
    include: ['<rootDir>/src/features/bulk'],
    exclude: ['**/*.test.*', ...MARKETING_PARTS],
  },
  {
    // Marketing messages: their settings and their errors, read after the first screen.
    path: '<rootDir>/src/locales/{locale}/marketing',
    // Utility messages (templates, updates after 24 hours) are read after the first screen too.
    include: [
      '<rootDir>/src/features/marketing',
      '<rootDir>/src/shared/marketing',
      '<rootDir>/src/features/utility',
      '<rootDir>/src/shared/utility',
      ...MARKETING_PARTS,
    ],
    exclude: ['**/*.test.*'],
  },
  {
    path: '<rootDir>/src/locales/{locale}/pwa',
    include: ['<rootDir>/src/features/pwa'],
    exclude: ['**/*.test.*'],
  },
  {
    // What a signed-out visitor sees: loaded before the first screen.
    path: '<rootDir>/src/locales/{locale}/start',
    include: START_FILES.map((file) => `<rootDir>/${file}`),
  },
  {
    path: '<rootDir>/src/locales/{locale}/app',
    include: ['<rootDir>/src'],
    exclude: [
      ...START_FILES.map((file) => `<rootDir>/${file}`),
      '<rootDir>/src/features/inbox/**',
      '<rootDir>/src/features/chat/**',
      '<rootDir>/src/features/labels/**',
      '<rootDir>/src/features/bulk/**',
      '<rootDir>/src/features/pwa/**',
      '<rootDir>/src/features/marketing/**',
      '<rootDir>/src/shared/marketing/**',
      '<rootDir>/src/features/utility/**',
      '<rootDir>/src/shared/utility/**',
      '<rootDir>/src/server/**',
      '<rootDir>/src/sandbox/**',
      '<rootDir>/src/locales/**',
      '**/*.test.*',
    ],
  },
]

/** `LINGUI_CATALOG=bulk npx lingui extract` touches only that area's catalogs. */
const only = process.env.LINGUI_CATALOG

const config: LinguiConfig = {
  sourceLocale,
  locales: locales.map((l) => l.code),
  fallbackLocales: { default: sourceLocale },
  // Origins without line numbers: moving code does not rewrite every catalog.
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
  catalogs: only ? allCatalogs!.filter((c) => c.path.endsWith(`/${only}`)) : allCatalogs,
}

export default config
