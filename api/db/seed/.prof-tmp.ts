import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { migrateDb, openDatabase } from '../client.ts'
import { createDiskStorage } from '../../lib/storage.ts'
import { logger } from '../../lib/logger.ts'
import { importCatalog } from './import-catalog.ts'
import { BUNDLED_CATALOG_CSV } from './ensure.ts'
const dir = process.argv[2]
const t0 = performance.now()
const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATABASE_URL ? undefined : dir ? path.join(dir, 'pglite') : undefined })
const t1 = performance.now()
await migrateDb(database)
const t2 = performance.now()
const r = await importCatalog({ db: database.db, storage: createDiskStorage(path.join(dir ?? '/tmp/h/mem', 'uploads')), csvPath: BUNDLED_CATALOG_CSV, logger })
const t3 = performance.now()
await database.close()
const t4 = performance.now()
console.log({ open: Math.round(t1 - t0), migrate: Math.round(t2 - t1), import: Math.round(t3 - t2), close: Math.round(t4 - t3) }, r.imported && r.timings)
