/**
 * Routes of /api/recommend (docs/recommendations.md, "API"): the recommendation rows, each in the
 * shopper's store (`X-Store-Id`, docs/stores.md).
 *
 * - POST /api/recommend/buy-again `{}` (signed in) → `{ products }`: the shopper's earlier products
 * - POST /api/recommend/together `{ productId }` → `{ products, source }`: "Frequently bought together"; 404 for an unknown product
 * - POST /api/recommend/missed `{ productIds }` → `{ products, source }`: "You might have missed" for a basket
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { BuyAgainSchema, MissedInputSchema, RecommendationRowSchema, TogetherInputSchema } from '../../../contract/recommend.ts'
import { STORE_HEADER, productReadDeps } from '../store/service.ts'
import { buyAgain, frequentlyBoughtTogether, youMightHaveMissed } from './service.ts'

/** Builds the /api/recommend router. */
export function recommendRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Recommend')

  endpoint(
    {
      method: 'post',
      path: '/buy-again',
      summary: "The signed-in shopper's earlier products in stock in the store, most often and most recently ordered first",
      access: 'user',
      body: z.object({}),
      answers: { 200: { description: 'Their products', data: BuyAgainSchema } },
    },
    requireUser(deps),
    async (c) => {
      const user = currentUser(c)
      const store = await productReadDeps(deps, c.req.header(STORE_HEADER))
      return ok(c, 'buy again', { products: await buyAgain(store, user.id) })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/together',
      summary: 'Products frequently bought together with one published product, in stock in the store',
      access: 'public',
      body: TogetherInputSchema,
      answers: { 200: { description: 'The row', data: RecommendationRowSchema } },
      errors: [404],
    },
    async (c, { productId }) =>
      ok(
        c,
        'frequently bought together',
        await frequentlyBoughtTogether(await productReadDeps(deps, c.req.header(STORE_HEADER)), productId),
      ),
  )

  endpoint(
    {
      method: 'post',
      path: '/missed',
      summary: 'Products often bought with a basket, none of its own, in stock in the store',
      access: 'public',
      body: MissedInputSchema,
      answers: { 200: { description: 'The row', data: RecommendationRowSchema } },
    },
    async (c, { productIds }) =>
      ok(c, 'you might have missed', await youMightHaveMissed(await productReadDeps(deps, c.req.header(STORE_HEADER)), productIds)),
  )

  return router
}
