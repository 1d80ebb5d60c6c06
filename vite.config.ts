import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { lingui } from '@lingui/vite-plugin'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { manifest } from './src/sw/manifest.ts'
import { precompress } from './scripts/precompress.ts'
import { startupChunkGroups } from './scripts/chunk-groups.ts'

const startup = startupChunkGroups()

/**
 * The contracts' schemas are built when their module loads (src/core/contracts), most of them request bodies
 * only the server reads. Calls through zod's namespace `z`, and to the token schema made the same way, are
 * taken for pure: a schema the app never reads is neither shipped nor built on its first route.
 */
const schemaTreeshake = { manualPureFunctions: ['z', 'networkToken'] }

const apiTarget = process.env.DEV_API_URL ?? 'http://localhost:8080'

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/app/routes',
      generatedRouteTree: './src/app/routeTree.gen.ts',
      autoCodeSplitting: true,
      // Home is the first screen after sign-in: its component ships in the signed-in chunk
      // (scripts/chunk-groups.ts) instead of costing one more request after it. The inbox route's component
      // is a small frame that loads the inbox itself (src/app/routes/$pageId.tsx).
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (routeId === '/' || routeId === '/$pageId' ? [] : undefined),
      },
    }),
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    tailwindcss(),
    VitePWA({
      // Our own service worker: the shell is precached, API and Graph responses never are.
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // Registration goes through workbox-window in src/features/pwa/register.ts so updates wait for the user.
      injectRegister: false,
      registerType: 'prompt',
      manifest,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // Screenshots are for the install dialog only: not worth a place in every device's cache.
        globIgnores: ['screenshots/**'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        // The worker is registered as a classic script, so it is built as one IIFE file (the plugin's 'es'
        // build passes Rolldown the deprecated inlineDynamicImports option and prints a warning every build).
        rollupFormat: 'iife',
      },
      devOptions: { enabled: false },
    }),
    precompress(),
    startup.plugin,
  ],
  build: {
    target: 'es2022',
    // For debugging the built app under `npm start`; the server never serves them in production
    // (src/server/http/static.ts).
    sourcemap: true,
    // .vite/manifest.json: the chunk graph that scripts/check-budgets.ts measures.
    manifest: true,
    // Few start-up files: see scripts/chunk-groups.ts.
    // No table of plugin timings after every build: a first start shows only what its reader needs.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      treeshake: schemaTreeshake,
      output: { codeSplitting: { groups: startup.groups } },
    },
  },
  worker: { format: 'es', rolldownOptions: { treeshake: schemaTreeshake } },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/sandbox': apiTarget,
      '/uploads': apiTarget,
    },
  },
})
