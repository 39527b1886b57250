import type { Config } from '@react-router/dev/config'

/** React Router framework config: server rendering on, every v8 future flag on (docs/stack.md, "React Router"). */
export default {
  ssr: true,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config
