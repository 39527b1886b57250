/**
 * ESLint (flat config): JavaScript's and typescript-eslint's recommended rules, React's hooks rules
 * for the app, and the import boundaries of the layout (docs/decisions/0014-tooling.md):
 * - `app/components` and `app/lib` run in the browser too: they never import `app/.server` nor a
 *   route's own server code, the `.server.ts` files beside the routes in `app/routes` (app/routes.ts);
 * - `app/.server` and those `*.server.ts` files are the BFF's server side: they never import UI code
 *   from `app/components`;
 * - `api/` is a service of its own (it may be deployed apart, `API_URL`): it never imports `app/`,
 *   and `app/` never imports `api/` (its tests may build the real API from `api/testing/`);
 * - what both servers need (configuration reading, the logger, the capped body reader, the
 *   cross-site rule) lives in the top-level `server-shared/`, which imports neither;
 * - server.ts, the composition root, may import both.
 * Shared wire rules live in the top-level `contract/`, which imports neither
 * (docs/decisions/0034-wiring-configuration-and-boundaries.md).
 * Formatting is Prettier's (`.prettierrc.json`), not ESLint's.
 */
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * An import of anything under `app/.server` or of a `*.server` module (relative, or through the `~`
 * alias). Type-only imports are erased from the bundle, so they pass; shared shapes belong in
 * `contract/` all the same.
 */
const SERVER_ONLY = {
  regex: '(^|/)\\.server(/|$)|\\.server(\\.[jt]sx?)?$',
  allowTypeImports: true,
  message: 'Browser code (app/components, app/lib) must not import app/.server or *.server files.',
}

/** An import of `api/` from `app/`. */
const NOT_API = {
  regex: '^(\\.\\./)+api(/|$)',
  message: 'app/ must not import api/ (it may run apart, API_URL): share through server-shared/ or contract/.',
}

/** The same for tests, which may build the real API in process from `api/testing/`. */
const NOT_API_BUT_TESTING = { ...NOT_API, regex: '^(\\.\\./)+api/(?!testing/)' }

/** An import of anything under `app/components` from `app/.server` or a `*.server` file. */
const NOT_COMPONENTS = {
  regex: '(^|/)components/',
  message: 'app/.server and *.server files must not import UI code (app/components): share through app/lib.',
}

export default tseslint.config(
  {
    ignores: ['build/**', '.react-router/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Every hooks rule is an error: the React Compiler's checks (no state set in an effect, no ref
      // read while rendering, no hook value mutated) and complete effect dependencies (an effect
      // reads the latest props through useEffectEvent instead of leaving them out).
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/set-state-in-effect': 'error',
      'react-hooks/refs': 'error',
      'react-hooks/immutability': 'error',
    },
  },
  {
    files: ['app/components/**', 'app/lib/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_ONLY] }] },
  },
  {
    files: ['app/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_API] }] },
  },
  {
    files: ['app/.server/**', 'app/routes/**/*.server.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_COMPONENTS, NOT_API] }] },
  },
  {
    files: ['app/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_API_BUT_TESTING] }] },
  },
  {
    files: ['app/.server/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_COMPONENTS, NOT_API_BUT_TESTING] }] },
  },
  {
    files: ['server-shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(\\.\\./)+(app|api)(/|$)|^~/', message: 'server-shared/ is shared by api/ and app/: it imports neither.' }],
        },
      ],
    },
  },
  {
    files: ['api/**', 'contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+app(/|$)|^~/',
              message: 'api/ and contract/ must not import the app (app/): share rules through contract/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and tools may use `any` for answers they check field by field.
    files: ['**/*.test.{ts,tsx}', 'tests/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
