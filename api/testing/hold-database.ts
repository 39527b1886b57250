/**
 * Test helper process: opens the embedded database in the folder given as the first argument,
 * prints `ready <pid>` and keeps it open until killed (SIGTERM closes it; SIGKILL leaves a stale
 * lock). Used by api/db/folder-lock.test.ts to have a second process on one data folder.
 */
import { openDatabase } from '../db/client.ts'

const database = await openDatabase({ dataDir: process.argv[2] })
console.log(`ready ${process.pid}`)
process.on('SIGTERM', () => {
  void database.close().then(() => process.exit(0))
})
setInterval(() => {}, 1 << 30)
