/**
 * The schema library of the contracts: zod's functional build (`zod/mini`), whose unused schemas and checks
 * the bundler leaves out of the app's chunks. Its compiled fast path builds parsers with `new Function`, which
 * the app's Content-Security-Policy forbids (no 'unsafe-eval'); jitless parsing never tries it. Its issues
 * carry English messages where the full library is loaded too (the server: src/server/http/errors.ts).
 */
import * as z from 'zod/mini'

z.config({ jitless: true })

export { z }
