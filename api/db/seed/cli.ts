/**
 * `npm run import:catalog [-- path/to/catalog.csv]`: opens the database like server.ts does
 * (DATABASE_URL, else PGlite under DATA_DIR/pglite, default ./data; images to S3_BUCKET or
 * DATA_DIR/uploads), applies migrations, imports the
 * catalogue into an empty database (or, when one is present, only re-stores missing artwork), closes.
 * Stop the server first when it uses the same PGlite folder: PGlite allows one process per folder.
 * Exit code 0 on success (also "already present"), 1 on failure.
 */
import path from 'node:path'
import { migrateDb, openDatabaseOrExit, withStartupLock } from '../client.ts'
import { createDiskStorage } from '../../lib/storage.ts'
import { createS3Storage } from '../../lib/storage-s3.ts'
import { loadConfig, localPaths } from '../../config.ts'
import { logger } from '../../../server-shared/logger.ts'
import { BUNDLED_CATALOG_CSV, ensureCatalog } from './ensure.ts'

const config = loadConfig()
logger.level = config.logLevel
const { dataDir, databaseUrl, s3 } = config
const paths = localPaths(config)
const csvPath = path.resolve(process.argv[2] ?? BUNDLED_CATALOG_CSV)

const database = await openDatabaseOrExit({ url: databaseUrl, dataDir: paths.pglite })
let exitCode = 0
try {
  await withStartupLock(database, () => migrateDb(database))
  // The same store as the server: S3_BUCKET, else DATA_DIR/uploads.
  const storage = s3 ? createS3Storage(s3) : createDiskStorage(paths.uploads)
  // An explicit run imports even when SEED_CATALOG=0 is set for the server.
  const outcome = await ensureCatalog({
    db: database.db,
    storage,
    logger,
    isEmbedded: !databaseUrl,
    dataDir,
    uploadsAt: paths.uploads,
    csvPath,
    seed: true,
  })
  if (outcome.action === 'imported') {
    const r = outcome.result
    console.log(
      `Imported ${r.products} products, ${r.subCategories} sub categories, ${r.categories} categories, ` +
        `${r.images} artwork images in ${(r.timings.totalMs / 1000).toFixed(1)} s ` +
        `(parse ${r.timings.parseMs} ms, images ${r.timings.imagesMs} ms, database ${r.timings.writeMs} ms); ` +
        `${r.illustrations} product pictures to draw on first request.`,
    )
  } else if (outcome.action === 'present') {
    console.log(
      `The catalogue is already present: nothing imported.` +
        (outcome.artworkRestored ? ` Re-stored ${outcome.artworkRestored} missing artwork images.` : ''),
    )
  }
} catch (err) {
  console.error('Catalogue import failed:', err instanceof Error ? err.message : err)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
