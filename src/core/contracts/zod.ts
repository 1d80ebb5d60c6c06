/**
 * The schema library of the contracts: zod's functional build (`zod/mini`), whose unused schemas and checks
 * the bundler leaves out of the app's chunks. Its objects never compile a parser; the full library's do, with
 * `new Function`, which the app's Content-Security-Policy forbids (no 'unsafe-eval'). The setting is jitless,
 * so that no schema ever tries it. Its issues carry English messages where the full library is loaded too (the
 * server: src/server/http/errors.ts).
 *
 * The app's build takes every call through `z` for a pure one (vite.config.ts), so that a schema the app
 * never reads is not built when its module loads. The setting below is therefore made through `config`, a
 * name of its own: a call to `z.config` would be left out of the app.
 */
import * as z from 'zod/mini'
import { config } from 'zod/mini'

config({ jitless: true })

export { z }
