// @ts-check
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/** Direction of imports (style.md): shared <- features <- app; worker and sw take only pure shared code. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })
const above = (...names) => names.map((n) => ({ group: [`**/${n}/**`, `**/${n}`], message: `This layer may not import from ${n}.` }))

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'src/app/routeTree.gen.ts', 'src/locales/**/*.ts', 'src/locales/**/*.js', 'tests/artifacts', 'dev-dist'] },
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
  { files: ['src/shared/**/*.{ts,tsx}'], rules: restrict(above('features', 'app', 'server', 'sandbox', 'worker', 'sw')) },
  { files: ['src/features/**/*.{ts,tsx}'], rules: restrict(above('app', 'server', 'sandbox')) },
  { files: ['src/worker/**/*.ts', 'src/sw/**/*.ts'], rules: restrict([...above('features', 'app', 'server', 'sandbox'), { group: ['react', 'react-dom'], message: 'Workers stay free of the UI.' }]) },
  { files: ['src/server/**/*.ts'], rules: restrict(above('features', 'app', 'sandbox', 'worker', 'sw')) },
  { files: ['src/sandbox/**/*.ts'], rules: restrict(above('features', 'app', 'server', 'worker', 'sw')) },
)
