/**
 * Start-up seeding (README.md, "The two commands": on an empty database the first start imports the
 * catalogue; idempotent, a second start imports nothing). Called by server.ts after migrations.
 *
 * - Empty catalogue (no category): imports the bundled CSV with its artwork, logs counts and time.
 * - Catalogue present: checks one stored artwork url; when DATA_DIR/uploads was deleted but the
 *   database kept, the artwork is stored again (same bytes → same content-addressed urls), so the
 *   imported products' images work again.
 * - Catalogue present: runs the one-off data fixes of api/db/seed/data-fixes.ts (each once, only on
 *   rows no person changed, each changed row audited as `system`), among them giving products
 *   imported before drawn pictures existed their own picture. A fresh import records every fix as
 *   done (docs/decisions/0040-data-fixes-skip-edited-rows.md).
 * - `SEED_CATALOG=0`: does none of these.
 *
 * The last two (`maintainCatalog`) are not needed to serve: the server passes `deferMaintenance` and
 * runs them once it is ready (docs/scale-out.md, "Start-up"), so a restart is not held by them
 * (re-storing the artwork of an empty upload folder took 4.3 s of a 12.8 s start, measured).
 */
import path from 'node:path'
import fs from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { ne } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { categories } from '../schema.ts'
import type { Logger } from '../../../server-shared/logger.ts'
import { storedImageKeys } from '../../lib/images.ts'
import type { Storage } from '../../lib/storage.ts'
import { ART_DIR } from './artwork.ts'
import { runCatalogDataFixes } from './data-fixes.ts'
import { seedDemoOrders } from './demo-orders.ts'
import { mineAssociationRules } from '../../modules/recommend/service.ts'
import { importCatalog, readArtwork, storeArtwork, type ImportResult } from './import-catalog.ts'

/** The catalogue shipped with the repository, api/db/seed/data/ (its source: README.md, "Credits"). */
export const BUNDLED_CATALOG_CSV = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'bigbasket-products.csv')

export interface EnsureCatalogOptions {
  db: Db
  storage: Storage
  logger: Logger
  /** True on the embedded PGlite default (only changes the log line). */
  isEmbedded: boolean
  /** DATA_DIR: its `uploads/` is where the images go on local disk. */
  dataDir: string
  /** Where the images are stored, as logged (api/config.ts `localPaths`: an `s3://` url with S3_BUCKET); default DATA_DIR/uploads. */
  uploadsAt?: string
  /** Defaults to the bundled CSV; tests pass a small one. */
  csvPath?: string
  /** False skips seeding (`SEED_CATALOG=0`, read by api/config.ts); default true. */
  seed?: boolean
  /** True: a catalogue already present is left to `maintainCatalog`, which the caller runs later. */
  deferMaintenance?: boolean
}

export type EnsureCatalogResult =
  | { action: 'skipped' }
  | { action: 'imported'; result: Extract<ImportResult, { imported: true }> }
  | { action: 'present'; artworkRestored: number }

/**
 * True when the stored files behind one catalogue image url exist (main file and a variant): a
 * cheap probe for "the upload folder was deleted". True as well when there is nothing to check
 * (no category with an image of ours).
 */
export async function isArtworkStored(db: Db, storage: Storage): Promise<boolean> {
  const [row] = await db.select({ image: categories.image }).from(categories).where(ne(categories.image, '')).limit(1)
  if (!row) return true
  const keys = storedImageKeys(storage, row.image)
  if (keys.length === 0) return true
  const [main, w128] = await Promise.all([storage.exists(keys[0]), storage.exists(keys[1])])
  return main && w128
}

/** Stores every bundled artwork file again through the pipeline; returns how many files were processed. */
export async function restoreArtwork(storage: Storage): Promise<number> {
  const files = (await fs.readdir(ART_DIR)).filter((f) => f.endsWith('.webp'))
  const stored = await storeArtwork(storage, await readArtwork(files))
  return stored.size
}

/** See the module comment. Never throws for "already seeded"; throws when the import itself fails. */
export async function ensureCatalog(opts: EnsureCatalogOptions): Promise<EnsureCatalogResult> {
  const { db, storage, logger, isEmbedded, dataDir } = opts
  const uploads = opts.uploadsAt ?? path.join(dataDir, 'uploads')
  if (opts.seed === false) {
    logger.info('SEED_CATALOG=0: catalogue seeding skipped')
    return { action: 'skipped' }
  }
  const result = await importCatalog({ db, storage, logger, csvPath: opts.csvPath ?? BUNDLED_CATALOG_CSV })
  if (result.imported) {
    // The demo order history and its rules, so the recommendation rows show on a fresh start (docs/recommendations.md, "Demo data").
    const demoOrders = await seedDemoOrders(db)
    const mined = await mineAssociationRules({ db, cache: { invalidate() {} }, clock: () => new Date() })
    logger.info({ demoOrders, rules: mined.rules }, 'seeded the demo order history and mined its rules')
    logger.info(
      {
        database: isEmbedded ? 'embedded PGlite' : 'PostgreSQL',
        uploads,
        categories: result.categories,
        subCategories: result.subCategories,
        products: result.products,
        images: result.images,
        seconds: Number((result.timings.totalMs / 1000).toFixed(1)),
      },
      `imported the catalogue: ${result.products} products in ${result.categories} categories`,
    )
    return { action: 'imported', result }
  }
  if (opts.deferMaintenance) return { action: 'present', artworkRestored: 0 }
  const { artworkRestored } = await maintainCatalog(opts)
  return { action: 'present', artworkRestored }
}

/**
 * The work on a catalogue already present (see the module comment): the one-off data fixes, then the
 * probe for a deleted upload folder and, if so, the artwork stored again. Idempotent; safe on N
 * instances at once (each fix takes its advisory lock, artwork is content-addressed).
 * @returns rows the data fixes changed (the caller drops what it cached of them) and files re-stored
 */
export async function maintainCatalog(
  opts: Pick<EnsureCatalogOptions, 'db' | 'storage' | 'logger' | 'dataDir' | 'csvPath' | 'uploadsAt'>,
): Promise<{ fixedRows: number; artworkRestored: number }> {
  const { db, storage, logger, dataDir } = opts
  const ran = await runCatalogDataFixes(db, opts.csvPath ?? BUNDLED_CATALOG_CSV, (key) => storage.urlFor(key), logger)
  const fixedRows = Object.values(ran).reduce((sum, rows) => sum + (rows ?? 0), 0)
  if (await isArtworkStored(db, storage)) return { fixedRows, artworkRestored: 0 }
  const restored = await restoreArtwork(storage)
  logger.warn(
    { files: restored, uploads: opts.uploadsAt ?? path.join(dataDir, 'uploads') },
    'catalogue artwork was missing from the upload folder: stored it again',
  )
  return { fixedRows, artworkRestored: restored }
}
