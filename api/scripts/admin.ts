/**
 * `npm run admin -- --email someone@example.com [--name "Asha"]`: makes that account an ADMIN
 * (README.md, "Admins and mail"). An existing account is promoted; otherwise one is created with the
 * password in `ADMIN_PASSWORD` or a random one printed once. Opens the database like server.ts
 * (DATABASE_URL, else PGlite under DATA_DIR/pglite). On PGlite it refuses to run while the server has
 * the folder open (one process per folder, api/db/folder-lock.ts): stop the server first. Exit code 0
 * on success, 1 on bad input or failure.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrateDb, openDatabaseOrExit } from '../db/client.ts'
import { loadConfig } from '../config.ts'
import { promoteOrCreateAdmin } from '../modules/user/admin-accounts.ts'

const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } })
if (!values.email) {
  console.error('Usage: npm run admin -- --email someone@example.com [--name "Full Name"]  (password: ADMIN_PASSWORD or random)')
  process.exit(1)
}
const config = loadConfig()
const database = await openDatabaseOrExit({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  pool: config.databasePool,
})
let exitCode = 0
try {
  await migrateDb(database)
  const result = await promoteOrCreateAdmin(database.db, { email: values.email, name: values.name, password: config.adminPassword })
  if (result.action === 'promoted') console.log(`${result.email} is now an ADMIN (sign in again to see the admin menu).`)
  else if (result.action === 'already-admin') console.log(`${result.email} is already an ADMIN.`)
  else if (result.generatedPassword)
    console.log(`Created ADMIN ${result.email} with password: ${result.generatedPassword}\n(shown once; change it after signing in)`)
  else console.log(`Created ADMIN ${result.email} with the password from ADMIN_PASSWORD.`)
} catch (err) {
  console.error('Could not make the admin:', err instanceof Error ? err.message : err)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
