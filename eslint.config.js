// @ts-check
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'
import { layers } from './eslint/layers.js'
import { sql } from './eslint/sql-home.js'

export default tseslint.config(
  { ignores: ['dist', 'dist-*', 'data', 'node_modules', 'src/app/routeTree.gen.ts', 'src/locales/**/*.ts', 'src/locales/**/*.js', 'tests/artifacts', 'dev-dist'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Direction of imports (docs/style.md#import-direction), on resolved paths: see eslint/layers.js.
  { files: ['src/**/*.{ts,tsx}'], plugins: { layers }, rules: { 'layers/direction': 'error' } },
  // SQL only in src/server/repo and src/server/db (docs/architecture.md#server-database): see eslint/sql-home.js.
  { files: ['src/server/**/*.ts'], plugins: { sql }, rules: { 'sql/home': 'error' } },
  {
    files: ['src/worker/**/*.ts', 'src/sw/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['react', 'react-dom'].map((name) => ({ name, message: 'Workers stay free of the UI.' })) }] },
  },
)
