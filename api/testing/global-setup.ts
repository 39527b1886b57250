/**
 * Vitest global setup: names the run's template database and hands it to the test processes through
 * the environment; createTestDatabase (api/testing/db.ts) copies it for each file instead of
 * migrating (api/testing/pglite-template.ts; docs/decisions/0035-test-database-template.md). On
 * PGlite it only makes a folder (the first test file that needs a database writes the template
 * there); on PostgreSQL it migrates the template database now. The returned teardown removes both.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createPgTemplate, dropPgTemplate, PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from './pglite-template.ts'

export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl) {
    const name = await createPgTemplate(serverUrl)
    process.env[PG_TEMPLATE_ENV] = name
    return async () => {
      delete process.env[PG_TEMPLATE_ENV]
      await dropPgTemplate(serverUrl, name)
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-pglite-template-'))
  process.env[PGLITE_TEMPLATE_ENV] = path.join(dir, 'template.tar')
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV]
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
