/**
 * The catalogue writes' server-side checks that need no schema: ids once each, and the stale-edit
 * rule of an `updatedAt` read version (contract/fields.ts `ReadVersionSchema`;
 * docs/decisions/0008-catalogue-writes.md). The body schemas themselves live in contract/.
 */
import { Conflict } from '../../lib/errors.ts'

/** The ids of `list` once each, in first-seen order, with the index where each was first given. */
export function distinctIds(list: string[]): { id: string; index: number }[] {
  const seen = new Map<string, number>()
  list.forEach((id, index) => {
    if (!seen.has(id)) seen.set(id, index)
  })
  return [...seen].map(([id, index]) => ({ id, index }))
}

/** The 409 message of an edit made on a stale copy. */
export const staleEditMessage = (what: string) => `This ${what} was changed by someone else since you opened it: reload and edit again`

/**
 * Throws the 409 of a stale edit when `readVersion` (the `updatedAt` the admin read) is given and is
 * not the row's `updatedAt` now (compared to the millisecond, the wire's precision).
 */
export function assertReadVersion(current: Date, readVersion: string | undefined, what: string): void {
  if (readVersion === undefined) return
  const read = new Date(readVersion).getTime()
  if (Math.floor(current.getTime()) !== read) throw Conflict(staleEditMessage(what))
}
