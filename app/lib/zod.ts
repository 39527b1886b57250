/**
 * zod for code that also runs in the browser: every schema module of the app imports `z` from here,
 * so this runs before any schema is built. In the browser zod is set to `jitless` (zod docs,
 * "Configuration"): otherwise building the first object schema probes `new Function`, which our
 * Content-Security-Policy forbids (no 'unsafe-eval', app/.server/csp.ts), and every page with a form
 * logs a CSP violation. On the server the compiled parsers stay on: no CSP applies there.
 * Modules outside app/ that the browser loads (contract/address.ts) are reached only through a module
 * that imports this one first (app/lib/schemas/address.ts).
 */
import { z } from 'zod'

if (typeof document !== 'undefined') z.config({ jitless: true })

export { z }
