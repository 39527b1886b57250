import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * The modules every visit to the shop's front door loads: the root's and the home page's. Rolldown
 * would split them into a dozen small chunks by which routes share them; gzip then compresses each
 * alone, and the home page's first-load JavaScript grows by some 4 KB. One "shell" chunk holds them
 * instead (docs/decisions/0018-page-cache.md, "First-load JavaScript").
 */
const SHELL_ROOTS = ['app/root.tsx', 'app/routes/index.tsx'].map((file) => path.resolve(import.meta.dirname, file))
const shellModules = new Set<string>()

/** Collects, once the client module graph is known, our modules that SHELL_ROOTS import statically. */
function shellChunk(): Plugin {
  return {
    name: 'grocery-shell-chunk',
    applyToEnvironment: (environment) => environment.name === 'client',
    buildEnd() {
      shellModules.clear()
      for (const root of SHELL_ROOTS) shellModules.add(root)
      const queue = [...SHELL_ROOTS]
      while (queue.length > 0) {
        const info = this.getModuleInfo(queue.pop()!)
        for (const next of info?.importedIds ?? []) {
          if (next.includes('node_modules') || shellModules.has(next)) continue
          shellModules.add(next)
          queue.push(next)
        }
      }
    },
  }
}

/**
 * zod in the browser runs `jitless` (zod docs, "Configuration"): otherwise building its first object
 * schema probes `new Function`, which the Content-Security-Policy forbids (no 'unsafe-eval',
 * app/.server/csp.ts), and every page with a schema logs a CSP violation. zod reads the setting when
 * a schema is built, and schemas are built as modules load (app/lib/schemas, contract/), so the
 * setting goes at the end of zod's own config module, which every schema module loads first. The
 * server keeps zod's compiled parsers: no CSP applies there.
 */
function zodJitlessInBrowser(): Plugin {
  return {
    name: 'grocery-zod-jitless',
    applyToEnvironment: (environment) => environment.name === 'client',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null
      return { code: `${code}\nconfig({ jitless: true });\n`, map: null }
    },
  }
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), shellChunk(), zodJitlessInBrowser()],
  resolve: { tsconfigPaths: true },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // Two lazy imports are meant to load a module that other pages import statically, and Rolldown
      // warns that they cannot move it into a chunk of its own (its `checks.ineffectiveDynamicImport`):
      // the home page's skeletons (app/routes/index.tsx) and the cart drawer's contents
      // (app/components/cart-panel.tsx). Each lazy import keeps its module out of the shell chunk every
      // visit loads (shellChunk above follows static imports only) and fetches the chunk it shares with
      // its pages on first use, which is all it is for; so the warning says nothing to act on.
      // Rolldown also reports, on a slow or busy machine, which plugins' callbacks took most of the
      // build (`checks.bundlerTimings`): React Router's and Tailwind's own, nothing this project can
      // tune, and a yellow block a newcomer's first `npm start` takes for a failure.
      checks: { ineffectiveDynamicImport: false, bundlerTimings: false },
    },
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: { groups: [{ name: 'shell', test: (id: string) => shellModules.has(id) || id.includes('rolldown/runtime') }] },
          },
        },
      },
    },
  },
})
