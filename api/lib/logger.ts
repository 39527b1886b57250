/**
 * The process logger now lives in server-shared/logger.ts (docs/decisions/0034-wiring-configuration-and-boundaries.md).
 * This re-export stays only for the two files that still name the old path (app/entry.server.tsx
 * and bench/search.ts); remove it once they import server-shared/logger.ts.
 */
export { logger, type Logger } from '../../server-shared/logger.ts'
