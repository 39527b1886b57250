import type { Db } from '../client.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Logger } from '../../lib/logger.ts'

/** Imports the bundled catalogue when the database has no category yet (placeholder until the importer lands). */
export async function ensureCatalog(_opts: { db: Db; storage: Storage; logger: Logger; isEmbedded: boolean; dataDir: string }) {}
