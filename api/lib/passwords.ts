/**
 * Password hashing with argon2id (OWASP Password Storage Cheat Sheet, "Argon2id": m=19456 KiB, t=2,
 * p=1). Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$…`) that carry their own salt and
 * parameters, so raising the cost later still verifies old hashes.
 */
import { randomBytes } from 'node:crypto'
import { hash, verify, type Options } from '@node-rs/argon2'

const ARGON2ID = 2 // Algorithm.Argon2id: a `const enum`, which tsx/esbuild cannot import by name

/** OWASP's minimum argon2id parameters: 19 MiB of memory, 2 passes, 1 lane. */
export const ARGON2_OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 }

/** Hashes `password` (any length the schemas allow) into an argon2id PHC string; about 30-60 ms. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

/** True when `password` matches `passwordHash`. A malformed hash is a mismatch, not an error. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

let dummyHash: Promise<string> | undefined

/**
 * Spends the time of one real verification against a throw-away hash, so that an unknown email
 * answers as slowly as a wrong password (OWASP Authentication Cheat Sheet, "Authentication
 * Responses": no user enumeration by timing). Always resolves to false.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'))
  await verifyPassword(await dummyHash, password)
  return false
}
