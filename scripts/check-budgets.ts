/**
 * Size budgets of the built app (run after `vite build`; `DIST_DIR` or the first argument picks the build
 * folder, default `dist`). Prints the compressed JavaScript of the login route and of the first signed-in
 * route against their budgets, checks that the heavy features load as chunks of their own, and exits 1 when a
 * budget is exceeded or such a feature sits in a first-load chunk. A feature not written yet is a warning.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import {
  type ViteManifest,
  entryKeys,
  homeRouteKeys,
  jsFiles,
  moduleId,
  signedInCatalogKeys,
  startupCatalogKeys,
  staticClosure,
} from './budgets/chunk-graph.ts'
import { judgeSeparation, separateFeatures } from './budgets/separation.ts'

/**
 * Budgets in kB of gzip-compressed JavaScript (1 kB = 1000 bytes, as Vite prints them).
 * The login route: 87 since only its own words load with it (86.2 kB; the other areas' catalogs wait for the
 * signed-in app or the PWA notices). 83 since its words are the login screen's alone (the start catalog), the
 * signed-in app's own words (the app catalog) loading beside its code: 82.8 kB. 84.5 since the count includes
 * the service worker's registration, which a visitor gets once the browser is idle, within the first seconds
 * (87.4 kB with it before): it registers without workbox-window and its notices load only when they have
 * something to say: 84.2 kB.
 */
export const LOGIN_BUDGET_KB = 84.5
/** Loaded after the first screen but within a visitor's first seconds: counted with the login route. */
const SERVICE_WORKER_REGISTRATION = 'src/features/pwa/register.ts'
/**
 * The first signed-in route. 172 since marketing messages: their entry in the page header, the chat's Ask to
 * subscribe button and the third way of reaching a customer in the sender's shared code sit on it (their
 * settings, the Ask to subscribe sheet, the budget step and their texts load later). 174 since every
 * failure is told by its class in the owner's language (the words of each Graph error class, isolated names,
 * notifications that close by themselves), the account menu's Account and Language entries, the confirmation
 * of destructive actions, Khmer dates written from CLDR's words, and a job's kind with the login's grants:
 * 173.0 kB when they landed. 178 since the count includes the catalogs the signed-in app waits for beside its
 * code (English's inbox, bulk, marketing and pwa: 177.2 kB), which load once a session exists instead of with
 * the login route; the marketing catalog, downloaded at start before, was not counted then. 180 since every
 * device lists the server's jobs and follows them live, the list has its filters (unread, needs reply, each
 * label) and the wizard its labels, first names and waiting customers: 179.6 kB. 178 since the Graph client
 * calls the platform's fetch itself instead of through a fetch library (3.4 kB), with utility messages in:
 * 177.7 kB; 179 with the wizard's update from a template, whose words the bulk catalog carries: 178.1 kB. 148
 * since the contracts are written with zod's functional build and the schemas stay off this route (the list of
 * the server's jobs reads them with the progress cards, 178.1 -> 151.4 kB), and the Graph client and its error
 * classes load with the screens that call the network (the inbox, the chat, the wizard): 147.6 kB; with the app
 * catalog a file of its own beside the start catalog: 147.9 kB. 148.5 since a screen that cannot be drawn says so in
 * the owner's language with a Try again, instead of the router's English default: 148.3 kB. 149 since home's
 * cards wait for the pages' standing (a banned page's note no longer pushes the cards below it down) and the
 * parts that follow the first paint start one after another at idle moments: 148.6 kB. 149.5 since the wizard
 * says when a loading stopped short and how many a long send reaches in time (words the bulk catalog carries)
 * and the API client reads a 429's Retry-After: 149.1 kB. 151 since every count is an ICU plural in all seven
 * languages (the bulk catalog's plural forms), the notices stand top-centre, say a lost connection once in the
 * owner's words and publish their height for the scroll padding, and the branded banner can be put away for
 * the session: 150.5 kB.
 */
export const HOME_BUDGET_KB = 151

const dist = process.argv[2] ?? process.env.DIST_DIR ?? 'dist'
const manifestPath = join(dist, '.vite', 'manifest.json')
if (!existsSync(manifestPath)) {
  console.error(`✗ ${manifestPath} is missing: build first (vite build with build.manifest enabled).`)
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ViteManifest

const gzipCache = new Map<string, number>()
function gzipBytes(file: string): number {
  let size = gzipCache.get(file)
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file))).length
    gzipCache.set(file, size)
  }
  return size
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1)
/** Brotli is printed for information (servers that precompress send it); the budget is on gzip. */
const brotliBytes = (files: string[]) =>
  files.reduce((sum, f) => sum + brotliCompressSync(readFileSync(join(dist, f))).length, 0)
let failed = false

function budget(label: string, files: string[], limitKb: number): Set<string> {
  const bytes = files.reduce((sum, f) => sum + gzipBytes(f), 0)
  const over = bytes > limitKb * 1000
  if (over) failed = true
  console.log(
    `${over ? '✗' : '✓'} ${label}: ${kb(bytes)} kB gzip (budget ${limitKb} kB, ${files.length} files; brotli ${kb(brotliBytes(files))} kB)`,
  )
  if (over)
    for (const f of [...files].sort((a, b) => gzipBytes(b) - gzipBytes(a)).slice(0, 8))
      console.log(`    ${kb(gzipBytes(f)).padStart(6)} kB  ${f}`)
  return new Set(files)
}

const loginKeys = staticClosure(manifest, [...entryKeys(manifest), ...startupCatalogKeys(manifest)])
const registrationKeys = staticClosure(
  manifest,
  SERVICE_WORKER_REGISTRATION in manifest ? [SERVICE_WORKER_REGISTRATION] : [],
)
const loginFiles = budget(
  'login route (entry, its static imports, start-up catalogs, service worker registration)',
  jsFiles(manifest, new Set([...loginKeys, ...registrationKeys])),
  LOGIN_BUDGET_KB,
)
// The signed-in app (router, query client, layout) is loaded by a dynamic import once a session exists.
const SIGNED_IN_APP = 'src/app/app.tsx'
const homeRoutes = [...homeRouteKeys(manifest), ...(SIGNED_IN_APP in manifest ? [SIGNED_IN_APP] : [])]
const homeKeys = staticClosure(manifest, [...loginKeys, ...homeRoutes, ...signedInCatalogKeys(manifest)])
const homeFiles = budget(
  `first signed-in route (login + the signed-in app + ${homeRoutes.length - 1} route chunks on the way to / + its catalogs)`,
  jsFiles(manifest, homeKeys),
  HOME_BUDGET_KB,
)

const modulesByFile = new Map<string, string[]>()
for (const chunk of Object.values(manifest)) {
  const mapPath = join(dist, `${chunk.file}.map`)
  if (!chunk.file.endsWith('.js') || modulesByFile.has(chunk.file)) continue
  const sources = existsSync(mapPath)
    ? ((JSON.parse(readFileSync(mapPath, 'utf8')) as { sources?: string[] }).sources ?? [])
    : []
  modulesByFile.set(
    chunk.file,
    sources.map((src) => moduleId(src, dirname(resolve(mapPath)), process.cwd())),
  )
}
if ([...modulesByFile.values()].every((m) => m.length === 0))
  console.log('! no source maps in the build: chunk separation cannot be checked')

const initialFiles = new Set([...loginFiles, ...homeFiles])
for (const feature of separateFeatures) {
  const verdict = judgeSeparation(feature, modulesByFile, initialFiles)
  if (verdict.state === 'separate')
    console.log(`✓ ${feature.name}: separate chunk (${verdict.chunks.join(', ')})`)
  else if (verdict.state === 'not-built') console.log(`! ${feature.name}: not built yet (warning)`)
  else {
    failed = true
    console.log(`✗ ${feature.name}: loaded with the first route (${verdict.chunks.join(', ')})`)
  }
}

process.exit(failed ? 1 : 0)
