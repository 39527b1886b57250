/**
 * Routes of /api/location (docs/stores.md, "Location"): where a shopper is and which dark store
 * serves them.
 *
 * - GET /resolve?pincode= or ?lat=&lng= → Location (public; nothing saved)
 * - PUT / `{ pincode }`, `{ lat, lng }` or `{ addressId }` → Location, with `cartChanges`: the caller's
 *   cart (the signed-in user's, else the guest cart of `X-Guest-Cart`, else none) fitted to the new
 *   store's stock; a signed-in user's choice is saved to the account
 * - GET / → the signed-in user's saved location, or null
 * - GET /default-store → the store a shopper without a location browses (public; docs/stores.md,
 *   "Location (BFF)")
 */
import { z } from 'zod'
import type { Context } from 'hono'
import type { AppDeps } from '../../deps.ts'
import { currentUser, optionalUser, requireUser, signedInUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { GuestCartIdSchema } from '../../../contract/cart.ts'
import {
  LatitudeSchema,
  LocationExtraShape,
  LocationQuerySchema,
  LocationSchema,
  LongitudeSchema,
  PincodeSchema,
  StoreSummarySchema,
} from '../../../contract/location.ts'
import { fitCartToStore, requireGuestCart, type CartOwner } from '../cart/service.ts'
import { defaultStore, locate, placeOf, placeOfPincode, saveUserLocation, storeSummary, userLocationPincode } from '../store/service.ts'

/** Builds the /api/location router. */
export function locationRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Location')

  endpoint(
    {
      method: 'get',
      path: '/resolve',
      summary: 'Which dark store serves a pincode or a point, and in how many minutes',
      access: 'public',
      query: z.object({
        pincode: PincodeSchema.optional().meta({ description: 'A 6-digit pincode' }),
        lat: LatitudeSchema.optional().meta({ description: 'Latitude in degrees (with lng)' }),
        lng: LongitudeSchema.optional().meta({ description: 'Longitude in degrees (with lat)' }),
      }),
      answers: { 200: { description: 'The location and the store serving it (or the nearest served area)', data: LocationSchema } },
    },
    async (c) => {
      const query = { pincode: c.req.query('pincode'), lat: c.req.query('lat'), lng: c.req.query('lng') }
      // Absent parameters are absent keys (a union branch must not see `pincode: undefined`).
      const parsed = LocationQuerySchema.safeParse(Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)))
      if (!parsed.success) throw badQuery(parsed.error)
      return ok(c, 'Location', await locate(deps, await placeOf(deps, parsed.data, undefined)))
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/default-store',
      summary: 'The store a shopper without a delivery location browses',
      description: 'The first active store by position; its stock is what a request without `X-Store-Id` reads.',
      access: 'public',
      answers: { 200: { description: 'The default store, open or not now', data: StoreSummarySchema } },
      errors: [503],
    },
    async (c) => ok(c, 'Default store', storeSummary(await defaultStore(deps), deps.clock())),
  )

  /** The cart a request names, if any: the signed-in user's, else a valid guest cart's. */
  const cartOwner = async (c: Context, userId: string | undefined): Promise<CartOwner | undefined> => {
    if (userId) return { kind: 'user', userId }
    const guest = GuestCartIdSchema.safeParse(c.req.header('x-guest-cart'))
    if (!guest.success) return undefined
    return requireGuestCart(deps, guest.data).catch(() => undefined)
  }

  endpoint(
    {
      method: 'put',
      path: '/',
      summary: "Set the shopper's delivery location; the cart is fitted to the new store's stock",
      description:
        "A signed-in user's choice is saved to the account. `cartChanges` lists the cart lines brought down to the new store's stock (0: unavailable there, kept and shown so).",
      access: 'public',
      body: LocationQuerySchema,
      headers: z.object({ 'x-guest-cart': GuestCartIdSchema.optional().meta({ description: 'The guest cart to fit, for a visitor' }) }),
      answers: { 200: { description: 'The new location', data: LocationSchema, extra: LocationExtraShape } },
      errors: [404],
    },
    optionalUser(deps),
    async (c, query) => {
      const user = signedInUser(c)
      const location = await locate(deps, await placeOf(deps, query, user?.id))
      if (user) await saveUserLocation(deps.db, user.id, location.pincode)
      const owner = await cartOwner(c, user?.id)
      // An unserviceable place still browses the default store (docs/stores.md): its stock caps the cart.
      const storeId = location.store?._id ?? (await defaultStore(deps)).id
      const cartChanges = owner ? await fitCartToStore({ ...deps, storeId }, owner) : []
      return ok(c, 'Location saved', location, { cartChanges })
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/',
      summary: "The signed-in user's saved delivery location, or null",
      access: 'user',
      answers: { 200: { description: 'The saved location, or null when none was chosen', data: LocationSchema.nullable() } },
    },
    requireUser(deps),
    async (c) => {
      const pincode = await userLocationPincode(deps.db, currentUser(c).id)
      if (!pincode) return ok(c, 'Location', null)
      return ok(c, 'Location', await locate(deps, placeOfPincode(pincode)))
    },
  )

  return router
}

/** A 400 naming each bad query field. */
function badQuery(error: z.ZodError) {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
  return BadRequest(issues[0]?.message ?? 'Bad query', issues)
}
