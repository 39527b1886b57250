/**
 * `npm run admin -- --email someone@example.com [--role admin|staff|rider|user] [--store <storeId>] [--name "Asha"]`:
 * gives that account the role, ADMIN by default (staff in the store `--store`, else every store; a
 * rider for the store `--store`, required; docs/delivery.md) (README.md, "Admins and mail"; docs/product.md, "Roles and
 * permissions"); `--role user` takes a role away. An existing account's role is changed; otherwise
 * one is created with the password in `ADMIN_PASSWORD` or a random one printed once. Each change is
 * an audit entry of the command line (docs/product.md, "Audit trail"). Opens the database like
 * server.ts (DATABASE_URL, else PGlite under DATA_DIR/pglite). On PGlite it refuses to run while the
 * server has the folder open (one process per folder, api/db/folder-lock.ts): stop the server first.
 * Exit code 0 on success, 1 on bad input or failure.
 */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrateDb, openDatabaseOrExit } from '../db/client.ts'
import { loadConfig } from '../config.ts'
import { logger } from '../../server-shared/logger.ts'
import { grantRole } from '../modules/user/admin-accounts.ts'
import { ROLES, type Role } from '../../contract/user.ts'

const USAGE =
  'Usage: npm run admin -- --email someone@example.com [--role admin|staff|rider|user] [--store <storeId>] [--name "Full Name"]  (password: ADMIN_PASSWORD or random; --store required for rider)'
const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', default: 'admin' }, store: { type: 'string' } },
})
const role = values.role.toUpperCase() as Role
if (
  !values.email ||
  !ROLES.includes(role) ||
  (values.store !== undefined && role !== 'STAFF' && role !== 'RIDER') ||
  (role === 'RIDER' && !values.store)
) {
  console.error(USAGE)
  process.exit(1)
}
const config = loadConfig()
logger.level = config.logLevel
const database = await openDatabaseOrExit({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  pool: config.databasePool,
})
let exitCode = 0
try {
  await migrateDb(database)
  const result = await grantRole(database.db, {
    email: values.email,
    role,
    name: values.name,
    password: config.adminPassword,
    storeId: values.store,
  })
  if (result.action === 'granted')
    console.log(`${result.email} is now ${result.role} (was ${result.previousRole}); the menu follows on the next page.`)
  else if (result.action === 'unchanged') console.log(`${result.email} is already ${result.role}.`)
  else if (result.generatedPassword)
    console.log(
      `Created ${result.role} ${result.email} with password: ${result.generatedPassword}\n(shown once; change it after signing in)`,
    )
  else console.log(`Created ${result.role} ${result.email} with the password from ADMIN_PASSWORD.`)
} catch (err) {
  console.error('Could not set the role:', err instanceof Error ? err.message : err)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
