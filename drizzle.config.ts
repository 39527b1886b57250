import { defineConfig } from 'drizzle-kit'

/** drizzle-kit: `npm run db:generate` writes SQL migrations from api/db/schema.ts. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './api/db/schema.ts',
  out: './api/db/migrations',
})
