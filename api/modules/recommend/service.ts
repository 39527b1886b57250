/**
 * Recommendation rows (docs/recommendations.md; docs/decisions/0065-association-rules-in-the-database.md):
 *
 * - `mineAssociationRules`: the job `recommend.mine` (api/jobs.ts) mines the rules X → Y of pairs of
 *   products bought in the same delivered order, Apriori-style (Agrawal & Srikant 1994: only products
 *   that are frequent alone can be in a frequent pair), keeps those passing the thresholds of
 *   ./thresholds.ts and replaces `product_associations` with them in one transaction.
 * - `frequentlyBoughtTogether` (product page) and `youMightHaveMissed` (cart): the consequents of
 *   the rules of the given products, highest lift first, then the same sub categories' best sellers
 *   (delivered units' order lines) when the rules give fewer than TOGETHER_MAX cards. Never a product
 *   given, never one unpublished or out of stock in the store.
 * - `buyAgain`: the products of a shopper's earlier orders (not cancelled, not awaiting payment), the
 *   most often ordered first, then the most recently, in stock in the store.
 *
 * Every read is one statement (two when the rules fall short), each through an index: the rules by
 * their primary key (antecedent first), a shopper's orders by `orders_user_created_idx`.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { BUY_AGAIN_MAX, TOGETHER_MAX, type RecommendationRow } from '../../../contract/recommend.ts'
import type { Product } from '../../../contract/product.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { products } from '../../db/schema.ts'
import { NotFound } from '../../lib/errors.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { storeInStock } from '../inventory/stock-bits.ts'
import { productColumns, storeCached, textArray, toProductAnswer, type ProductReadDeps, type ProductRow } from '../product/reads.ts'
import { DEFAULT_ASSOCIATION_THRESHOLDS, type AssociationThresholds } from './thresholds.ts'

/** What the mining needs: the database, the thresholds (the defaults when absent), and the catalogue cache to drop after a change. */
export interface MiningDeps {
  db: Db
  recommend?: AssociationThresholds
  cache: { invalidate(): void }
  clock: () => Date
}

/** What one mining found: delivered orders read, and rules kept. */
export interface MiningResult {
  orders: number
  rules: number
}

/**
 * Mines the rules of every pair of products in the same delivered order and replaces the stored ones
 * (one transaction, under an advisory lock so two runs never interleave). Drops the catalogue cache
 * (and with it the cached pages) when the rules changed, so the rows show the new ones.
 * @returns how many delivered orders were read and rules kept
 */
export async function mineAssociationRules(deps: MiningDeps): Promise<MiningResult> {
  const t = deps.recommend ?? DEFAULT_ASSOCIATION_THRESHOLDS
  const now = deps.clock()
  const result = await deps.db.transaction(async (tx) => {
    // One mining at a time across instances (PostgreSQL docs, "Advisory Locks"); the key is this table's name.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('product_associations'))`)
    // raw SQL: a digest of every rule (md5 over string_agg), so the caches are dropped only when the rules changed
    const before = await queryRows<{ digest: string | null }>(
      tx,
      sql`select md5(string_agg(antecedent_id || '>' || consequent_id || ':' || pair_orders, ',' order by antecedent_id, consequent_id)) as digest
          from product_associations`,
    )
    await tx.execute(sql`delete from product_associations`)
    // raw SQL: counting pairs with a self-join of the baskets is one statement on both engines.
    await tx.execute(sql`
      insert into product_associations (antecedent_id, consequent_id, pair_orders, support, confidence, lift, mined_at)
      with baskets as (
        select distinct l.order_id, l.product_id
        from order_lines l join orders o on o.id = l.order_id join products pr on pr.id = l.product_id
        where o.status = 'delivered'
      ),
      total as (select count(distinct order_id)::float8 as n from baskets),
      items as (select product_id, count(*)::float8 as c from baskets group by product_id),
      -- Apriori's pruning: a pair is no more frequent than either of its products alone.
      frequent as (
        select b.order_id, b.product_id from baskets b join items i on i.product_id = b.product_id cross join total
        where i.c >= ${t.minPairOrders} and i.c / total.n >= ${t.minSupport}
      ),
      pairs as (
        select a.product_id as x, b.product_id as y, count(*)::float8 as c
        from frequent a join frequent b on b.order_id = a.order_id and b.product_id <> a.product_id
        group by a.product_id, b.product_id
      )
      select pairs.x, pairs.y, pairs.c::int, pairs.c / total.n, pairs.c / ix.c, (pairs.c / ix.c) / (iy.c / total.n), ${now}
      from pairs join items ix on ix.product_id = pairs.x join items iy on iy.product_id = pairs.y cross join total
      where pairs.c >= ${t.minPairOrders}
        and pairs.c / total.n >= ${t.minSupport}
        and pairs.c / ix.c >= ${t.minConfidence}
        and (pairs.c / ix.c) / (iy.c / total.n) >= ${t.minLift}`)
    // raw SQL: the same digest with the counts of rules and of delivered orders, in one statement
    const [after] = await queryRows<{ digest: string | null; rules: number; orders: number }>(
      tx,
      sql`select md5(string_agg(antecedent_id || '>' || consequent_id || ':' || pair_orders, ',' order by antecedent_id, consequent_id)) as digest,
                 count(*)::int as rules,
                 (select count(*)::int from orders where status = 'delivered') as orders
          from product_associations`,
    )
    return { orders: Number(after!.orders), rules: Number(after!.rules), changed: (before[0]?.digest ?? null) !== (after!.digest ?? null) }
  })
  if (result.changed) deps.cache.invalidate()
  return { orders: result.orders, rules: result.rules }
}

/** The best sellers among published products in stock sharing a sub category with `ofIds`, none of `exclude`: at most `limit`. */
async function shelfBestSellers(deps: ProductReadDeps, ofIds: string[], exclude: string[], limit: number): Promise<Product[]> {
  if (limit <= 0 || ofIds.length === 0) return []
  const inStock = storeInStock(deps.storeId)
  // raw SQL: a top-N by delivered order lines (one probe of order_lines_product_idx per candidate), expanded through productColumns
  const rows = await queryRows<ProductRow>(
    deps.db,
    sql`select ${productColumns(deps.storeId)}
        from (select p.id, (select count(*) from order_lines l join orders o on o.id = l.order_id
                            where l.product_id = p.id and o.status = 'delivered') as sold
              from products p
              where p.publish and ${inStock} and p.id <> all(${textArray(exclude)})
                and p.search_sub_category_ids && (select coalesce(array_agg(distinct s), '{}'::text[])
                                                  from products q, unnest(q.search_sub_category_ids) s
                                                  where q.id = any(${textArray(ofIds)}))
              order by sold desc, p.id limit ${limit}) s
        join products p on p.id = s.id
        order by s.sold desc, p.id`,
  )
  return rows.map(toProductAnswer)
}

/** The consequents of the rules of `antecedents`, published and in stock, none of `exclude`: highest lift first. */
async function ruleConsequents(deps: ProductReadDeps, antecedents: string[], exclude: string[], limit: number): Promise<Product[]> {
  const inStock = storeInStock(deps.storeId)
  // raw SQL: the rules of the antecedents through the primary key, best rule per consequent, expanded through productColumns
  const rows = await queryRows<ProductRow>(
    deps.db,
    sql`select ${productColumns(deps.storeId)}
        from (select a.consequent_id as id, max(a.lift) as lift, max(a.confidence) as confidence
              from product_associations a
              where a.antecedent_id = any(${textArray(antecedents)})
              group by a.consequent_id) r
        join products p on p.id = r.id
        where p.publish and ${inStock} and p.id <> all(${textArray(exclude)})
        order by r.lift desc, r.confidence desc, p.id
        limit ${limit}`,
  )
  return rows.map(toProductAnswer)
}

/** The row of `antecedents`: their rules' consequents, then their shelves' best sellers; none of `exclude`. */
async function recommendationRow(deps: ProductReadDeps, antecedents: string[], exclude: string[]): Promise<RecommendationRow> {
  const fromRules = await ruleConsequents(deps, antecedents, exclude, TOGETHER_MAX)
  const taken = [...exclude, ...fromRules.map((p) => p._id)]
  const fill = await shelfBestSellers(deps, antecedents, taken, TOGETHER_MAX - fromRules.length)
  return { products: [...fromRules, ...fill], source: fromRules.length > 0 ? 'rules' : 'best-sellers' }
}

/**
 * "Frequently bought together" for one product's page: never the product itself nor its other pack
 * sizes. Shared by every shopper of the store (no cart read), so cached under
 * `recommend:together:<id>` with the store (dropped when a shown product's availability changes,
 * and by the mining when the rules change).
 * @throws NotFound "Product not found" when the id is unknown, unpublished or not an id at all
 */
export function frequentlyBoughtTogether(deps: ProductReadDeps, productId: string): Promise<RecommendationRow> {
  if (!PLAUSIBLE_ID.test(productId)) return Promise.reject(NotFound('Product not found'))
  return storeCached(deps, `recommend:together:${productId}`, async () => {
    const [self] = await deps.db
      .select({ id: products.id, group: products.packGroup })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.publish, true)))
    if (!self) throw NotFound('Product not found')
    const sizes = self.group
      ? (await deps.db.select({ id: products.id }).from(products).where(eq(products.packGroup, self.group))).map((r) => r.id)
      : []
    return recommendationRow(deps, [productId], [productId, ...sizes])
  })
}

/**
 * "You might have missed" for a basket (the cart's product ids): never one of them. Not cached (the
 * basket is the shopper's own).
 */
export function youMightHaveMissed(deps: ProductReadDeps, productIds: string[]): Promise<RecommendationRow> {
  const ids = [...new Set(productIds.filter((id) => PLAUSIBLE_ID.test(id)))]
  if (ids.length === 0) return Promise.resolve({ products: [], source: 'best-sellers' })
  return recommendationRow(deps, ids, ids)
}

/**
 * "Buy again": the products `userId` ordered before (orders neither cancelled nor awaiting payment),
 * the most often ordered (distinct orders) first, then the most recently, then by id; published and
 * in stock in the store; at most BUY_AGAIN_MAX. One statement through `orders_user_created_idx`.
 */
export async function buyAgain(deps: { db: Db; storeId: string }, userId: string): Promise<Product[]> {
  const inStock: SQL = storeInStock(deps.storeId)
  // raw SQL: grouped by product over the shopper's orders, expanded through productColumns
  const rows = await queryRows<ProductRow>(
    deps.db,
    sql`select ${productColumns(deps.storeId)}
        from (select l.product_id as id, count(distinct o.id) as times, max(o.created_at) as last_at
              from orders o join order_lines l on l.order_id = o.id
              where o.user_id = ${userId} and o.status not in ('cancelled', 'payment_pending') and l.product_id is not null
              group by l.product_id) b
        join products p on p.id = b.id
        where p.publish and ${inStock}
        order by b.times desc, b.last_at desc, p.id
        limit ${BUY_AGAIN_MAX}`,
  )
  return rows.map(toProductAnswer)
}
