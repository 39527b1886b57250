/**
 * The signed-in user's profile (docs/product.md, "Profile"; docs/api-contract.md, "Users":
 * `update-user` and `upload-avatar`). Knows nothing of HTTP: it throws the typed errors of
 * lib/errors.ts.
 */
import { and, eq, ne } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { users, type User } from '../../db/schema.ts'
import { BadRequest, Conflict } from '../../lib/errors.ts'
import { deleteImageIfUnused, processImage, recordImage } from '../../lib/images.ts'
import type { UpdateUserInput, User as PublicUser } from '../../../contract/user.ts'
import { isUniqueViolation, toPublicUser } from './service.ts'

/** The email belongs to another account. */
export const EMAIL_IN_USE = 'Email already in use'
export const PROFILE_UPDATED = 'Updated successfully'
export const AVATAR_UPDATED = 'Avatar updated successfully'

/** A verified mobile changes only through an SMS code (POST /api/user/mobile/send and /verify). */
export const VERIFY_NEW_MOBILE = 'Verify a new mobile number with an OTP'
/** Order updates by SMS go to a verified number only. */
export const SMS_NEEDS_VERIFIED_MOBILE = 'Verify your mobile number to get order updates by SMS'

/** A 400 with one issue on `path`. */
const fieldError = (path: string, message: string) => BadRequest(message, [{ path, message }])

/**
 * Replaces name, email and mobile of `user` (already validated by UpdateUserSchema) and sets the
 * SMS switch when given. The email is required of an account that has one, the mobile of an account
 * without a verified one (an account made by phone sign-in may send its name alone). A changed email
 * is no longer verified (`verify_email` back to false).
 * @returns the updated public user
 * @throws 400 "Email is required" / "Mobile is required"; 400 VERIFY_NEW_MOBILE for a mobile other
 *   than the verified one; 400 SMS_NEEDS_VERIFIED_MOBILE for switching SMS on without a verified
 *   mobile; 409 EMAIL_IN_USE when another account has the email, including when a concurrent
 *   request takes it first (the unique index `users_email_key` decides)
 */
export async function updateProfile(db: AppDeps['db'], user: User, input: UpdateUserInput): Promise<PublicUser> {
  if (input.email === undefined && user.email !== null) throw fieldError('email', 'Email is required')
  if (input.mobile === undefined && !user.mobileVerified) throw fieldError('mobile', 'Mobile is required')
  if (user.mobileVerified && input.mobile !== undefined && input.mobile !== user.mobile) throw fieldError('mobile', VERIFY_NEW_MOBILE)
  if (input.sms_order_updates && !user.mobileVerified) throw fieldError('sms_order_updates', SMS_NEEDS_VERIFIED_MOBILE)
  const email = input.email ?? user.email
  if (email !== null) {
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, user.id)))
      .limit(1)
    if (other) throw Conflict(EMAIL_IN_USE)
  }
  const isEmailChanged = email !== user.email
  try {
    const [row] = await db
      .update(users)
      .set({
        name: input.name,
        email,
        mobile: input.mobile ?? user.mobile,
        ...(isEmailChanged ? { verifyEmail: false } : {}),
        ...(input.sms_order_updates !== undefined ? { smsOrderUpdates: input.sms_order_updates } : {}),
      })
      .where(eq(users.id, user.id))
      .returning()
    return toPublicUser(row!)
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(EMAIL_IN_USE)
    throw err
  }
}

/**
 * Stores a new avatar for `user`: checked by content, re-encoded to a square WebP with its variants
 * (lib/images.ts `processImage`), recorded, and set on the user; then the previous avatar's files
 * are removed unless something else still uses that url (content-addressed: two users who uploaded
 * the same picture share one set of files).
 * @param bytes the uploaded file as received (its name and type header are ignored)
 * @returns `{ _id, avatar }` with the new url (docs/api-contract.md, "Endpoints")
 * @throws 413 over deps.uploadMaxBytes or 40 megapixels; 415 not a JPEG, PNG, WebP, AVIF or GIF
 *   (an SVG or a renamed text file included). Nothing is stored or changed when it throws.
 */
export async function uploadAvatar(
  deps: Pick<AppDeps, 'db' | 'storage' | 'uploadMaxBytes' | 'logger'>,
  user: User,
  bytes: Buffer,
): Promise<{ _id: string; avatar: string }> {
  const options = { storage: deps.storage, maxBytes: deps.uploadMaxBytes, square: true }
  const image = await processImage(bytes, options)
  let previous: string
  try {
    previous = await deps.db.transaction(async (tx) => {
      const [row] = await tx.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id)).for('update')
      await tx.update(users).set({ avatar: image.url }).where(eq(users.id, user.id))
      await recordImage(tx, image)
      return row?.avatar ?? ''
    })
  } catch (err) {
    // The user row did not change: do not leave the new files behind (unless another row uses them).
    await deleteImageIfUnused(deps.db, deps.storage, image.url).catch(() => {})
    throw err
  }
  if (previous && previous !== image.url) {
    try {
      await deleteImageIfUnused(deps.db, deps.storage, previous)
    } catch (err) {
      // The avatar did change; a stale file is a cleanup matter, not the shopper's error.
      deps.logger.warn({ err, url: previous }, 'old avatar files could not be removed')
    }
  }
  // A concurrent removal of the same content-addressed files (another user dropping this picture
  // between processImage and the update above) would leave the url dangling: store it again.
  if (!(await deps.storage.exists(image.key))) await processImage(bytes, options)
  return { _id: user.id, avatar: image.url }
}
