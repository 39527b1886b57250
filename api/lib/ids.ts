import { randomBytes } from 'node:crypto'

/**
 * A new opaque id: 24 lower-case hex characters from a CSPRNG (the shape of the original's Mongo
 * ObjectIds, so old clients accept it). Never contains a dash: the slug rule (docs/product.md,
 * "Slugs") reads the id as the last dash-separated piece.
 */
export function newId(): string {
  return randomBytes(12).toString('hex')
}
