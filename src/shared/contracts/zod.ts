/**
 * zod for schemas that run in the browser. Its compiled fast path builds parsers with `new Function`, which
 * the app's Content-Security-Policy forbids (no 'unsafe-eval'); jitless parsing never tries it.
 */
import { z } from 'zod'

z.config({ jitless: true })

export { z }
