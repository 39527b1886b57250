/**
 * Database schema (Drizzle, PostgreSQL dialect; the same on PGlite and a real server).
 * Entities follow docs/product.md, "Entities"; ids are opaque 24-hex strings (no dashes, because the
 * slug rule, docs/product.md, "Slugs", takes the id as the last dash-separated piece of a URL segment).
 */
import { sql } from 'drizzle-orm'
import { ORDER_STATUSES } from '../../contract/order-status.ts'
import { DELIVERY_FAILURE_REASONS } from '../../contract/delivery-failure.ts'
import { ADDRESS_LABELS } from '../../contract/address.ts'
import type { DeliveryInstructions } from '../../contract/tip.ts'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core'
import { newId } from '../lib/ids.ts'

/** PostgreSQL's `tsvector` (full-text document); read as text, never written (generated columns). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })
/** PostgreSQL's `bit varying`, read as a string of 0s and 1s. */
const bitVarying = customType<{ data: string }>({ dataType: () => 'bit varying' })

const id = () => text('id').primaryKey().$defaultFn(newId)
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
}

/**
 * A shopper, a staff member or an admin. `role` is 'ADMIN', 'STAFF', 'RIDER' or 'USER' (docs/product.md, "Roles and
 * permissions"; riders: docs/delivery.md). Email is stored lower-cased.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    /** Null for an account made by phone sign-in that has not added one (migration 0029). */
    email: text('email'),
    /** Argon2id hash; null for an account made by phone sign-in (it signs in by SMS code only). */
    passwordHash: text('password_hash'),
    avatar: text('avatar').notNull().default(''),
    mobile: text('mobile'),
    /** `mobile` was proven by an SMS code; unique among verified numbers (users_verified_mobile_key). */
    mobileVerified: boolean('mobile_verified').notNull().default(false),
    /** The shopper's switch for order status updates by SMS (docs/api-contract.md, "Phone sign-in"). */
    smsOrderUpdates: boolean('sms_order_updates').notNull().default(false),
    verifyEmail: boolean('verify_email').notNull().default(false),
    lastLoginDate: timestamp('last_login_date', { withTimezone: true }),
    status: text('status', { enum: ['Active', 'Inactive', 'Suspended'] })
      .notNull()
      .default('Active'),
    role: text('role', { enum: ['ADMIN', 'STAFF', 'RIDER', 'USER'] })
      .notNull()
      .default('USER'),
    /** The shopper's chosen delivery PIN code (docs/stores.md, "Location"); null until chosen. */
    locationPincode: text('location_pincode'),
    /** A STAFF or RIDER account's dark store (migrations 0032, 0040; docs/product.md, "Staff"); null for everyone else. */
    storeId: text('store_id').references((): AnyPgColumn => stores.id, { onDelete: 'set null' }),
    /** The tip of the shopper's last order placed at this storefront's checkout, paise (0: none; null: never chosen; migration 0041). */
    lastTipPaise: integer('last_tip_paise'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_verified_mobile_key')
      .on(t.mobile)
      .where(sql`${t.mobileVerified}`),
    index('users_store_idx')
      .on(t.storeId)
      .where(sql`${t.storeId} is not null`),
    index('users_team_idx')
      .on(t.role)
      .where(sql`${t.role} <> 'USER'`),
  ],
)

/**
 * The live SMS code of one purpose and subject (migration 0029; api/modules/user/phone.ts): `signin`
 * codes keyed by the 10-digit number, `link` codes by the user id verifying a number. One row each:
 * a new code replaces the old one.
 */
export const smsCodes = pgTable(
  'sms_codes',
  {
    purpose: text('purpose', { enum: ['signin', 'link'] }).notNull(),
    subject: text('subject').notNull(),
    mobile: text('mobile').notNull(),
    otpHash: text('otp_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.purpose, t.subject] }), index('sms_codes_expires_idx').on(t.expiresAt)],
)

/**
 * Refresh tokens: one row per issued token, stored as a SHA-256 hash. Tokens of one sign-in share a
 * `familyId`; presenting a used token revokes the whole family (OAuth 2.0 Security BCP, RFC 9700 §4.14).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
)

/**
 * Password-recovery one-time codes (docs/api-contract.md, "Differences from the original contract"):
 * the code is stored hashed, lives 10 minutes, allows 5 wrong tries; one live code per user (unique
 * user_id). `resetTokenHash` is set by a successful verify and consumed by the reset.
 */
export const passwordResets = pgTable('password_resets', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  otpHash: text('otp_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  resetTokenHash: text('reset_token_hash'),
  resetTokenExpiresAt: timestamp('reset_token_expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Top-level category (docs/product.md, "Entities"): name and image url. */
export const categories = pgTable(
  'categories',
  { id: id(), name: text('name').notNull(), image: text('image').notNull().default(''), ...timestamps },
  (t) => [index('categories_name_idx').on(t.name)],
)

/** Sub category (docs/product.md, "Entities"); linked to one or more categories through `sub_category_categories`. */
export const subCategories = pgTable(
  'sub_categories',
  { id: id(), name: text('name').notNull(), image: text('image').notNull().default(''), ...timestamps },
  (t) => [index('sub_categories_name_idx').on(t.name)],
)

export const subCategoryCategories = pgTable(
  'sub_category_categories',
  {
    subCategoryId: text('sub_category_id')
      .notNull()
      .references(() => subCategories.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subCategoryId, t.categoryId] }), index('scc_category_idx').on(t.categoryId)],
)

/**
 * Product (docs/product.md, "Entities"). `price` is the MRP in rupees, `sellingPrice` the selling
 * price in rupees as the catalogue gives it, and `discount` the percentage derived from the two (for
 * display; see docs/decisions/0011-commerce-orders-and-money.md). `sku` keeps the source dataset's
 * ProductID for provenance. `searchDoc` (the words of the name, weight A, and of the brand, weight B)
 * and `searchHead` (the name's head noun, SQL function `search_head`) are generated for the search,
 * which ranks by them (migration 0006_search, docs/search.md). A trigger keeps `search_vocabulary` in
 * step with them.
 */
export const products = pgTable(
  'products',
  {
    id: id(),
    name: text('name').notNull(),
    image: text('image')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    unit: text('unit').notNull().default(''),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    /** Selling price in rupees, exactly as the source catalogue or an admin gives it (0 ≤ it ≤ MRP). */
    sellingPrice: numeric('selling_price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    discount: numeric('discount', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    description: text('description').notNull().default(''),
    moreDetails: jsonb('more_details').$type<Record<string, string>>().notNull().default({}),
    publish: boolean('publish').notNull().default(true),
    sku: text('sku'),
    /** The HSN code an admin gave (4, 6 or 8 digits); null: its shelf's heading (api/modules/invoice/gst-rates.ts). */
    hsn: text('hsn'),
    /**
     * The product's number in the stores' availability bits (`store_stock_bits`, migration
     * 0020_store_stock_bits): a dense identity, never written here.
     */
    stockSeq: integer('stock_seq').generatedByDefaultAsIdentity(),
    searchDoc: tsvector('search_doc').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple'::regconfig, translate(coalesce("name", ''), '/.', '  ')), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce("more_details"->>'brand', ''), '/.', '  ')), 'B')`,
    ),
    searchHead: text('search_head')
      .array()
      .generatedAlwaysAs(sql`search_head("name")`),
    /**
     * The pack size of `unit` as {kind (1 g, 2 ml, 3 pieces), total, count, each}, null for a combo
     * or no size (SQL function `pack_size`, migration 0009_pack_size): what a search naming a size
     * ranks and narrows by (docs/search.md, "Pack sizes").
     */
    searchPack: numeric('search_pack', { mode: 'string' })
      .array()
      .generatedAlwaysAs(sql`pack_size("unit")`),
    /**
     * The product's pack group, `brand|name` without sizes (SQL function `pack_group_key`, migration
     * 0019_pack_groups; api/modules/product/pack-groups.ts): products sharing it are pack sizes of one
     * product, shown as one card (docs/product.md, "Pack sizes"). Null: a group of its own.
     */
    packGroup: text('pack_group').generatedAlwaysAs(sql`pack_group_key("name", "more_details"->>'brand', "unit")`),
    /**
     * Copies of the product's category and sub category links (ids, sorted), kept by triggers on the
     * link tables (migration 0007_search_shelves): the search ranks every match by its shelves, and
     * reading them from the row is what keeps a search of a common word fast. Never written here.
     */
    searchCategoryIds: text('search_category_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    searchSubCategoryIds: text('search_sub_category_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * When a person last changed the row (an admin's or staff member's edit, the grid's bulk edit, a
     * product CSV import; migration 0024_product_edited_marker) and who (user id; null: the command
     * line). Null: as the catalogue import or a data fix left it, the only rows a one-off data fix may
     * change (docs/decisions/0040-data-fixes-skip-edited-rows.md).
     */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    editedBy: text('edited_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_sku_key').on(t.sku),
    uniqueIndex('products_stock_seq_key').on(t.stockSeq),
    index('products_created_idx').on(t.createdAt.desc(), t.id),
    // fastupdate off: a pending list of new rows would be read in full by every search (migration 0006_search).
    index('products_search_doc_idx').using('gin', t.searchDoc).with({ fastupdate: false }),
    index('products_search_sub_category_ids_idx').using('gin', t.searchSubCategoryIds).with({ fastupdate: false }),
    index('products_pack_group_idx')
      .on(t.packGroup)
      .where(sql`${t.packGroup} is not null`),
  ],
)

/**
 * Every distinct word of the published products' names and brands, with the number of products
 * having it (maintained by triggers on `products`, migration 0006_search): the dictionary that
 * spelling correction searches by trigram similarity (pg_trgm docs, F.35.5).
 */
export const searchVocabulary = pgTable(
  'search_vocabulary',
  { word: text('word').primaryKey(), products: integer('products').notNull() },
  (t) => [
    // On lower(word): a GIN trigram index on `word` itself would be taken for exact look-ups too.
    index('search_vocabulary_trgm_idx')
      .using('gin', sql`lower(${t.word}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('search_vocabulary_prefix_idx').using('btree', sql`${t.word} text_pattern_ops`),
  ],
)

/**
 * Search synonyms: a word shoppers type (`doodh`) and a catalogue word it stands for (`milk`);
 * `bothWays` when the catalogue word should find the shopper's word too (curd finds "Dahi"); a `brand` row
 * names what a brand makes (parle → biscuits). Seeded
 * from api/db/seed/data/synonyms.csv, then the store's to edit (docs/search.md).
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    word: text('word').notNull(),
    means: text('means').notNull(),
    bothWays: boolean('both_ways').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'word' (a name for a thing) or 'brand' (a brand → what it makes; used only when the store has no product of the brand). Migration 0018. */
    kind: text('kind').notNull().default('word'),
    /** Where the meaning can be checked: a key of the sources listed in api/db/seed/data/synonyms.csv. */
    source: text('source').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.word, t.means] })],
)

export const productCategories = pgTable(
  'product_categories',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.categoryId] }), index('pc_category_idx').on(t.categoryId)],
)

export const productSubCategories = pgTable(
  'product_sub_categories',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    subCategoryId: text('sub_category_id')
      .notNull()
      .references(() => subCategories.id, { onDelete: 'restrict' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.subCategoryId] }), index('psc_sub_category_idx').on(t.subCategoryId)],
)

/** Stored images (uploads and imported artwork): one row per stored original, keyed by content hash. */
export const images = pgTable('images', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  bytes: integer('bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Drawn product pictures (migration 0016_illustrations; api/lib/illustrations.ts): the stored name
 * (`<24 hex>-il`) and what the picture is drawn from; the files are drawn on first request.
 */
export const illustrations = pgTable('illustrations', {
  id: text('id').primaryKey(),
  subject: jsonb('subject').$type<{ brand: string; name: string; unit: string; form: string; seed: string }>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export type User = typeof users.$inferSelect
export type Category = typeof categories.$inferSelect
export type SubCategory = typeof subCategories.$inferSelect
export type Product = typeof products.$inferSelect

/**
 * Shared rate-limit counters (rate-limiter-flexible's RateLimiterPostgres layout: key, points, expire
 * in ms since the epoch). Used when the API runs on a PostgreSQL server, so every app container
 * counts against one budget (docs/decisions/0009-rate-limits.md).
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
})

/** One-off data corrections run at start (api/db/seed/data-fixes.ts); a row records that one ran. */
export const dataFixes = pgTable('data_fixes', {
  name: text('name').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  rows: integer('rows').notNull().default(0),
})

/**
 * A cart: a signed-in user's (one per user) or a guest's, keyed by the SHA-256 of the guest cart id
 * (docs/commerce-api.md, "Guest carts"). Exactly one of `userId` and `guestTokenHash` is set.
 */
export const carts = pgTable(
  'carts',
  {
    id: id(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestTokenHash: text('guest_token_hash'),
    /** The coupon code the shopper applied (migration 0039; docs/offers.md, "Applying a code"); checked again on every read. */
    couponCode: text('coupon_code'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('carts_user_key').on(t.userId),
    uniqueIndex('carts_guest_key').on(t.guestTokenHash),
    index('carts_updated_idx').on(t.updatedAt),
  ],
)

/**
 * A cart line. `unitPricePaise` is the selling price in paise when the line was added or last
 * confirmed, so placing an order can tell the shopper that a price changed.
 */
export const cartLines = pgTable(
  'cart_lines',
  {
    id: id(),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    unitPricePaise: integer('unit_price_paise').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('cart_lines_cart_product_key').on(t.cartId, t.productId), index('cart_lines_product_idx').on(t.productId)],
)

/** A delivery address (docs/product.md, "Entities"). `status` false = removed (soft delete, kept for old orders). */
export const addresses = pgTable(
  'addresses',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressLine: text('address_line').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pincode: text('pincode').notNull(),
    country: text('country').notNull().default('India'),
    mobile: text('mobile').notNull(),
    /** Home, Work or Other (contract/address.ts ADDRESS_LABELS; a CHECK in migration 0031). */
    label: text('label', { enum: ADDRESS_LABELS }).notNull().default('Home'),
    /** Floor and landmark, '' when none (migration 0031). */
    floor: text('floor').notNull().default(''),
    landmark: text('landmark').notNull().default(''),
    status: boolean('status').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('addresses_user_idx').on(t.userId, t.createdAt)],
)

/**
 * An order: amounts in integer paise (`grandTotalPaise` = items + delivery + `roundingPaise`, the
 * cash to collect rounded to the rupee), the delivery address as a snapshot (jsonb) as it was at order
 * time, `version` bumped by every status change (optimistic concurrency). `(userId,
 * idempotencyKey)` is unique: a retried placement finds the order instead of making a second one.
 */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    orderNumber: text('order_number').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('placed'),
    paymentMethod: text('payment_method').notNull().default('CASH ON DELIVERY'),
    deliveryAddress: jsonb('delivery_address').$type<Record<string, string>>().notNull(),
    addressId: text('address_id').references(() => addresses.id, { onDelete: 'set null' }),
    itemsTotalMrpPaise: integer('items_total_mrp_paise').notNull(),
    itemsTotalPaise: integer('items_total_paise').notNull(),
    deliveryChargePaise: integer('delivery_charge_paise').notNull(),
    grandTotalPaise: integer('grand_total_paise').notNull(),
    /** What rounding the cash-on-delivery grand total to the rupee added (−49..+50 paise; migration 0008). */
    roundingPaise: integer('rounding_paise').notNull().default(0),
    /** The optional reason given when the order was cancelled (null otherwise). */
    cancelReason: text('cancel_reason'),
    /** The dark store that delivers the order (migration 0010_dark_stores; docs/stores.md). */
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'restrict' }),
    /** The delivery time promised at placement, in minutes, and the moment it ends (null before stores). */
    promisedMinutes: integer('promised_minutes'),
    promisedAt: timestamp('promised_at', { withTimezone: true }),
    /** When the order was marked delivered (null until then): late when after `promisedAt`. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    version: integer('version').notNull().default(1),
    /** cod, pending, paid, expired, mismatch, refund_pending, refunded, partially_refunded, refund_failed (migrations 0015, 0021; contract/payment.ts). */
    paymentState: text('payment_state').notNull().default('cod'),
    /** While `pending`: when the held stock goes back (docs/payments.md, "Reservation"). */
    reservationExpiresAt: timestamp('reservation_expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * The tax invoice's number and issue moment, given once by a trigger when the order becomes a
     * placed cash-on-delivery order or a paid one, and the supplier then (migration 0026_tax_invoices).
     * Never written here.
     */
    invoiceNumber: text('invoice_number'),
    invoiceIssuedAt: timestamp('invoice_issued_at', { withTimezone: true }),
    invoiceSupplier: jsonb('invoice_supplier').$type<InvoiceSupplierSnapshot>(),
    /** The RIDER holding the order (migration 0040; docs/delivery.md); null while it waits for one. */
    riderId: text('rider_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** When the order was given to its rider (null while waiting). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /** The cash the rider recorded at a cash-on-delivery delivery, in paise (null otherwise). */
    cashCollectedPaise: integer('cash_collected_paise'),
    /** The rider's reason of the last "Could not deliver" (docs/delivery.md); null once an admin reassigned it. */
    deliveryIssue: text('delivery_issue'),
    /**
     * A failed delivery (migration 0044; docs/delivery.md, "Could not deliver"): the reason from the
     * fixed list (contract/delivery-failure.ts), the short note (`other`, at most 120 characters) and
     * when it was marked; all null unless the status is `delivery_failed`.
     */
    deliveryFailureReason: text('delivery_failure_reason', { enum: DELIVERY_FAILURE_REASONS }),
    deliveryFailureNote: text('delivery_failure_note'),
    deliveryFailedAt: timestamp('delivery_failed_at', { withTimezone: true }),
    /**
     * The 4-digit code the shopper tells the rider, set when an order of at least DELIVERY_CODE_ABOVE
     * goes out for delivery (migration 0042; docs/delivery.md, "Delivery code"); null: none needed.
     */
    deliveryCode: text('delivery_code'),
    /** Wrong codes the rider typed; at DELIVERY_CODE_MAX_ATTEMPTS the rider must call the store. */
    deliveryCodeAttempts: integer('delivery_code_attempts').notNull().default(0),
    /**
     * The coupon the order used, its code and the discount in paise, taken off the items before
     * delivery and rounding (migration 0039; docs/offers.md, "At placement"). 0 and nulls: none.
     */
    couponId: text('coupon_id').references((): AnyPgColumn => coupons.id, { onDelete: 'restrict' }),
    couponCode: text('coupon_code'),
    couponDiscountPaise: integer('coupon_discount_paise').notNull().default(0),
    /**
     * The tip for the delivery partner, paise (whole rupees, 0..₹200; 0: none), a bill line outside
     * GST, and the delivery instructions (null: none). Migration 0041; docs/commerce-api.md, "Tip and
     * delivery instructions".
     */
    tipPaise: integer('tip_paise').notNull().default(0),
    /**
     * The named fees as charged at placement, paise (0: none): handling charge, small cart fee,
     * late-night fee. Migration 0043; docs/commerce-api.md, "Fees".
     */
    handlingChargePaise: integer('handling_charge_paise').notNull().default(0),
    smallCartFeePaise: integer('small_cart_fee_paise').notNull().default(0),
    lateNightFeePaise: integer('late_night_fee_paise').notNull().default(0),
    deliveryInstructions: jsonb('delivery_instructions').$type<DeliveryInstructions>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_number_key').on(t.orderNumber),
    uniqueIndex('orders_invoice_number_key').on(t.invoiceNumber),
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('orders_status_created_idx').on(t.status, t.createdAt.desc()),
    index('orders_rider_idx')
      .on(t.riderId)
      .where(sql`${t.riderId} is not null`),
    index('orders_dispatch_queue_idx')
      .on(t.storeId, t.createdAt)
      .where(sql`${t.status} = 'packed' and ${t.riderId} is null`),
    index('orders_coupon_user_idx')
      .on(t.couponId, t.userId)
      .where(sql`${t.couponId} is not null`),
  ],
)

/**
 * A rider's shift (migration 0040; docs/delivery.md, "Dispatch"): `onShift`, and `freeSince`, when the
 * rider last became free (went on shift or handed over its last order): the rider free longest gets
 * the next packed order. The dispatcher locks these rows, one rider per transaction.
 */
export const riderShifts = pgTable('rider_shifts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  onShift: boolean('on_shift').notNull().default(false),
  freeSince: timestamp('free_since', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Where an order's rider was (migration 0046; docs/delivery.md, "Live tracking"): degrees, accuracy
 * in metres, `recordedAt` the server's clock at the report. Personal data: deleted 24 h after the
 * order was delivered, cancelled or failed (the `tracking.purge` job).
 */
export const riderPositions = pgTable(
  'rider_positions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    riderId: text('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    accuracyM: integer('accuracy_m').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rider_positions_order_idx').on(t.orderId, t.recordedAt.desc())],
)

/** The supplier of an invoice as the store was when it was issued (migration 0026_tax_invoices). */
export interface InvoiceSupplierSnapshot {
  storeId: string
  storeName: string
  gstin: string | null
  address: string
}

/**
 * A credit note (CGST Rules 2017, rule 53), issued by triggers (migration 0026_tax_invoices) when an
 * invoiced order is cancelled (`orderLineId` null) or one of its lines is refunded, and by
 * `issue_report_credit_note` (migration 0048) when a problem report is refunded (`orderIssueId`, the
 * `units` of its line and the value credited, `amountPaise`, GST included). Never written here.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    number: text('number').primaryKey(),
    orderId: text('order_id').notNull(),
    orderLineId: text('order_line_id'),
    reason: text('reason', { enum: ['cancelled', 'line_refund', 'problem_report'] }).notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    invoiceIssuedAt: timestamp('invoice_issued_at', { withTimezone: true }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** The problem report refunded (migration 0048; unique); null for a whole-line or cancel note. */
    orderIssueId: text('order_issue_id'),
    /** A report's note: the units of its line credited. */
    units: integer('units'),
    /** A report's note: the value credited, GST included (the report's value), paise. */
    amountPaise: integer('amount_paise'),
  },
  (t) => [index('credit_notes_order_idx').on(t.orderId, t.issuedAt)],
)

/** One line of an order: a snapshot of the product as sold (never changed by catalogue edits). */
export const orderLines = pgTable(
  'order_lines',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    image: text('image').notNull().default(''),
    unit: text('unit').notNull().default(''),
    brand: text('brand').notNull().default(''),
    quantity: integer('quantity').notNull(),
    unitPricePaise: integer('unit_price_paise').notNull(),
    mrpPaise: integer('mrp_paise').notNull(),
    discount: numeric('discount', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    lineTotalPaise: integer('line_total_paise').notNull(),
    /** This line's share of the order's coupon discount, paise (migration 0039): refunded and taxed net of it. */
    couponSharePaise: integer('coupon_share_paise').notNull().default(0),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId, t.position), index('order_lines_product_idx').on(t.productId)],
)

/**
 * One provider order per attempt to pay one of our orders (migration 0015; docs/payments.md): its
 * receipt is our order number, `amountPaise` the order's grand total. `status`: created, captured,
 * failed, mismatch, refunded. A further capture of the same provider order is a row of its own
 * (migration 0025; docs/payments.md, "Exactly once"): only the row still waiting for a capture is
 * unique per provider order.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    providerPaymentId: text('provider_payment_id'),
    method: text('method').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull().default('INR'),
    status: text('status').notNull().default('created'),
    failureReason: text('failure_reason'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_provider_order_open_key')
      .on(t.provider, t.providerOrderId)
      .where(sql`${t.providerPaymentId} is null`),
    index('payments_provider_order_idx').on(t.provider, t.providerOrderId),
    uniqueIndex('payments_provider_payment_key').on(t.provider, t.providerPaymentId),
    index('payments_order_idx').on(t.orderId),
  ],
)

/** Provider webhook events already processed (each once, by the provider's event id). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
)

/** A refund of (part of) a captured payment; `status`: pending, processed, failed. */
export const refunds = pgTable(
  'refunds',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    providerRefundId: text('provider_refund_id'),
    /** The line refunded because it could not be delivered; null: the rest of the order. */
    orderLineId: text('order_line_id').references(() => orderLines.id, { onDelete: 'set null' }),
    amountPaise: integer('amount_paise').notNull(),
    status: text('status').notNull().default('pending'),
    reason: text('reason').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('refunds_provider_refund_key').on(t.providerRefundId),
    index('refunds_order_idx').on(t.orderId),
    // A line has at most one live refund; failed ones are replaced (migration 0025).
    uniqueIndex('refunds_order_line_live_key')
      .on(t.orderLineId)
      .where(sql`${t.status} <> 'failed'`),
  ],
)

/** Every status an order went through, with who set it (null = the shopper's own placement/cancel by a deleted user). */
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    byUserId: text('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.at)],
)

/**
 * A shopper's report of a problem with units of one line of a delivered order (migration 0045;
 * docs/help-after-delivery.md): `kind` missing, damaged, wrong_item or expired; `valuePaise` what was
 * paid for those units; `status` pending (waits for an admin), refunded or rejected; `auto` when the
 * refund was automatic (under HELP_AUTO_REFUND_PER_ORDER and HELP_AUTO_REFUND_PER_MONTH);
 * `refundMethod` online (the `refundId` row) or cod_note (the store pays it back in cash).
 */
export const orderIssues = pgTable(
  'order_issues',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderLineId: text('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['missing', 'damaged', 'wrong_item', 'expired'] }).notNull(),
    units: integer('units').notNull(),
    note: text('note').notNull().default(''),
    photo: text('photo'),
    valuePaise: integer('value_paise').notNull(),
    status: text('status', { enum: ['pending', 'refunded', 'rejected'] })
      .notNull()
      .default('pending'),
    auto: boolean('auto').notNull().default(false),
    refundMethod: text('refund_method', { enum: ['online', 'cod_note'] }),
    refundId: text('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    ...timestamps,
  },
  (t) => [
    index('order_issues_order_idx').on(t.orderId, t.createdAt),
    index('order_issues_line_idx').on(t.orderLineId),
    index('order_issues_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('order_issues_user_auto_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.auto}`),
    uniqueIndex('order_issues_refund_key').on(t.refundId),
  ],
)

/**
 * Idempotency keys of the admin create endpoints (api/lib/idempotency.ts): one row per (user, endpoint,
 * key), written in the create's own transaction with the answer it gave, so a retried create answers
 * the first result instead of making a second row. Rows older than a day are removed.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
)

/**
 * A dark store (docs/stores.md): a small warehouse that delivers to the PIN codes whose centre lies
 * within `radiusKm` of it. `lat`/`lng` null: the centre of its own PIN code. Opening hours are
 * "HH:MM" in India Standard Time. The first active store by `position` is the default store.
 */
export const stores = pgTable(
  'stores',
  {
    id: id(),
    name: text('name').notNull(),
    area: text('area').notNull(),
    city: text('city').notNull(),
    addressLine: text('address_line').notNull().default(''),
    pincode: text('pincode').notNull(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    radiusKm: numeric('radius_km', { precision: 5, scale: 2, mode: 'number' }).notNull().default(3),
    opensAt: text('opens_at').notNull().default('06:00'),
    closesAt: text('closes_at').notNull().default('24:00'),
    pickers: integer('pickers').notNull().default(4),
    /** Its own rider speed, km/h (5-60, a CHECK in migration 0036); null: the global `DELIVERY_RIDER_KMPH` (docs/stores.md, "Delivery time"). */
    riderKmph: numeric('rider_kmph', { precision: 3, scale: 1, mode: 'number' }),
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
    version: integer('version').notNull().default(1),
    /**
     * The store's GSTIN, the supplier's on the invoices of the orders it delivers (migration
     * 0026_tax_invoices; docs/decisions/0042-invoice-and-credit-note-numbering.md); null: the
     * seller's `SELLER_GSTIN`.
     */
    gstin: text('gstin'),
    /** The registered address as printed on its invoices, lines separated by `\n`; null: address line, city, PIN code. */
    registeredAddress: text('registered_address'),
    /** The head of its invoice and credit-note numbers (1-4 capitals or digits, unique): `BLR1`. */
    invoiceCode: text('invoice_code')
      .notNull()
      .default(sql`('S' || nextval('store_invoice_code_seq')::text)`),
    /** An admin's pause ("Closed for stock-taking", migration 0034): no orders while set, whatever the hours. */
    pausedNote: text('paused_note'),
    ...timestamps,
  },
  (t) => [index('stores_active_position_idx').on(t.active, t.position), uniqueIndex('stores_invoice_code_key').on(t.invoiceCode)],
)

/** One product's stock in one store (units, never negative); a missing row is stock 0. */
export const inventory = pgTable(
  'inventory',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    stock: integer('stock').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.productId], name: 'inventory_pk' }), index('inventory_product_idx').on(t.productId)],
)

/**
 * Which products a store has in stock, one bit per product (`products.stock_seq`), kept equal to
 * `inventory` by deferred triggers (migration 0020_store_stock_bits; docs/stores.md, "Availability
 * bits"): a search reads the store's row once instead of probing `inventory` per matching product.
 * Read and written in SQL only (api/modules/inventory/stock-bits.ts).
 */
export const storeStockBits = pgTable('store_stock_bits', {
  storeId: text('store_id')
    .primaryKey()
    .references(() => stores.id, { onDelete: 'cascade' }),
  inStock: bitVarying('in_stock').notNull(),
})

export type StoreRow = typeof stores.$inferSelect

/**
 * A product CSV uploaded for import and checked by a dry run, kept until it is applied or a day has
 * passed (docs/decisions/0023-catalogue-import.md): the confirm step names it by `id`, the SHA-256 of
 * its bytes, so what is applied is exactly the file the admin saw checked, on any API instance,
 * without the upload ever being served (catalogue files are not public like `storage`).
 */
export const productImports = pgTable(
  'product_imports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('product_imports_created_idx').on(t.createdAt)],
)

/**
 * Catalogue imports run as jobs (migration 0035_import_jobs; docs/product-csv.md, "Imports as jobs";
 * docs/decisions/0061-imports-as-jobs.md): one row per dry run or apply. `content` is the uploaded
 * file as text (at most CSV_MAX_BYTES; '' in an apply, which reads its dry run's); `rowsDone` of `rowsTotal` is the progress and the checkpoint a
 * resumed run continues from (an apply advances it in the transaction of the slice it wrote);
 * `counts`, `errors` (the first IMPORT_ERRORS_MAX, line order) and `errorCount` the result so far. An
 * apply names the clean dry run it applies (`checkedJobId`, at most one apply each).
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    kind: text('kind', { enum: ['product'] })
      .notNull()
      .default('product'),
    mode: text('mode', { enum: ['dry-run', 'apply'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    content: text('content').notNull(),
    counts: jsonb('counts')
      .$type<{ rows: number; created: number; updated: number; unchanged: number }>()
      .notNull()
      .default({ rows: 0, created: 0, updated: 0, unchanged: 0 }),
    errors: jsonb('errors').$type<{ line: number; column: string; message: string }[]>().notNull().default([]),
    errorCount: integer('error_count').notNull().default(0),
    message: text('message'),
    checkedJobId: text('checked_job_id').references((): AnyPgColumn => importJobs.id, { onDelete: 'set null' }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('import_jobs_checked_job_idx')
      .on(t.checkedJobId)
      .where(sql`${t.mode} = 'apply'`),
    index('import_jobs_created_idx').on(t.createdAt),
  ],
)

/**
 * The uploaded file of an import job in parts of at most IMPORT_PART_CHARS characters, `n` from 0
 * (migration 0049_import_job_parts): written and read one part per statement, so the embedded
 * database is never held for a whole file (docs/decisions/0061-imports-as-jobs.md). Removed with its job.
 */
export const importJobParts = pgTable(
  'import_job_parts',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    content: text('content').notNull(),
  },
  (t) => [primaryKey({ name: 'import_job_parts_pk', columns: [t.jobId, t.n] })],
)

/**
 * A coupon (migration 0037_coupons; docs/offers.md, "Coupons"): `code` upper-case and unique, `kind`
 * flat (`amountPaise`) or percent (`percent`, capped by `maxDiscountPaise`), the minimum basket in
 * paise, an optional validity window, first order only, per-shopper and total use limits, an
 * optional store and category scope, and the active switch. Managed by api/modules/coupon.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: id(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['flat', 'percent'] }).notNull(),
    amountPaise: integer('amount_paise'),
    percent: integer('percent'),
    maxDiscountPaise: integer('max_discount_paise'),
    minBasketPaise: integer('min_basket_paise').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    perUserLimit: integer('per_user_limit'),
    totalLimit: integer('total_limit'),
    storeId: text('store_id').references(() => stores.id, { onDelete: 'restrict' }),
    categoryId: text('category_id').references(() => categories.id, { onDelete: 'restrict' }),
    active: boolean('active').notNull().default(true),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('coupons_code_key').on(t.code)],
)

/**
 * The audit trail (docs/product.md, "Audit trail"; docs/decisions/0024-staff-role-and-audit-trail.md):
 * one row per admin or staff change, written by api/lib/audit.ts `recordAudit` in the change's own
 * transaction. `actorId` has no foreign key (an entry outlives its author); `actorEmail` null = the
 * operator's command line. `before`/`after` hold the changed fields only (null for a create/delete side).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_actor_idx').on(t.actorEmail, t.at),
    index('audit_log_entity_idx').on(t.entity, t.at),
  ],
)

/**
 * The test payment provider's orders (migration 0027; docs/payments.md, "The test provider"): what
 * Razorpay keeps on its side, in the database so that every instance serves the hosted page.
 * `status`: created, paid. `callbackUrl`/`cancelUrl`: paths of this site only.
 */
export const testPaymentOrders = pgTable('test_payment_orders', {
  id: text('id').primaryKey(),
  amountPaise: integer('amount_paise').notNull(),
  currency: text('currency').notNull(),
  receipt: text('receipt').notNull(),
  status: text('status').notNull().default('created'),
  method: text('method').notNull().default('upi'),
  callbackUrl: text('callback_url').notNull().default('/'),
  cancelUrl: text('cancel_url').notNull().default('/'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** The test provider's payments (migration 0027); `status`: captured, failed. */
export const testPaymentPayments = pgTable(
  'test_payment_payments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => testPaymentOrders.id, { onDelete: 'cascade' }),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    method: text('method').notNull(),
    errorDescription: text('error_description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_payment_payments_order_idx').on(t.orderId, t.createdAt)],
)

/** The test provider's refunds (migration 0027); `status`: pending, processed. */
export const testPaymentRefunds = pgTable(
  'test_payment_refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => testPaymentPayments.id, { onDelete: 'cascade' }),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull().default('INR'),
    status: text('status').notNull().default('pending'),
    receipt: text('receipt'),
    notes: jsonb('notes').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_payment_refunds_payment_idx').on(t.paymentId, t.createdAt.desc())],
)

/**
 * Emails the job runner sent, by Message-ID (migration 0027; RFC 5322 §3.6.4; docs/jobs.md, "Order
 * emails"): recorded before the job is acknowledged, so a job run again skips a mail already sent.
 */
export const sentMails = pgTable(
  'sent_mails',
  {
    messageId: text('message_id').primaryKey(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sent_mails_sent_at_idx').on(t.sentAt)],
)

/**
 * The SQL function files applied to this database (api/db/function-files.ts; migration
 * 0028_sql_function_files): a file's name without `.sql` and the SHA-256 (hex) of the text applied.
 */
export const sqlFunctionFiles = pgTable('sql_function_files', {
  name: text('name').primaryKey(),
  checksum: text('checksum').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Association rules "bought X → also bought Y" mined from delivered orders (migration
 * 0038_product_associations; docs/recommendations.md; docs/decisions/0065-association-rules-in-the-database.md).
 * `pairOrders` is how many delivered orders hold both; `support`, `confidence` and `lift` are the
 * rule's measures as Agrawal & Srikant define them (fractions; lift > 1 means bought together more
 * than chance). Written only by the `recommend.mine` job, all rows at once.
 */
export const productAssociations = pgTable(
  'product_associations',
  {
    antecedentId: text('antecedent_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    consequentId: text('consequent_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    pairOrders: integer('pair_orders').notNull(),
    support: doublePrecision('support').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    lift: doublePrecision('lift').notNull(),
    minedAt: timestamp('mined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.antecedentId, t.consequentId], name: 'product_associations_pk' })],
)
