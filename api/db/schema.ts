/**
 * Database schema (Drizzle, PostgreSQL dialect; the same on PGlite and a real server).
 * Entities follow the spec's section 3; ids are opaque 24-hex strings (no dashes, because the
 * spec's slug rule takes the id as the last dash-separated piece of a URL segment).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
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

const id = () => text('id').primaryKey().$defaultFn(newId)
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
}

/** A shopper or an admin. `role` is 'ADMIN' or 'USER' (spec section 6). Email is stored lower-cased. */
export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    avatar: text('avatar').notNull().default(''),
    mobile: text('mobile'),
    verifyEmail: boolean('verify_email').notNull().default(false),
    lastLoginDate: timestamp('last_login_date', { withTimezone: true }),
    status: text('status', { enum: ['Active', 'Inactive', 'Suspended'] }).notNull().default('Active'),
    role: text('role', { enum: ['ADMIN', 'USER'] }).notNull().default('USER'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
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
 * Password-recovery one-time codes (contract, "Defects"): the code is stored hashed, lives 10 minutes,
 * allows 5 wrong tries; one live code per user (unique user_id). `resetTokenHash` is set by a
 * successful verify and consumed by the reset.
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

/** Top-level category (spec section 3): name and image url. */
export const categories = pgTable(
  'categories',
  { id: id(), name: text('name').notNull(), image: text('image').notNull().default(''), ...timestamps },
  (t) => [index('categories_name_idx').on(t.name)],
)

/** Sub category (spec section 3); linked to one or more categories through `sub_category_categories`. */
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
  (t) => [
    primaryKey({ columns: [t.subCategoryId, t.categoryId] }),
    index('scc_category_idx').on(t.categoryId),
  ],
)

/**
 * Product (spec section 3). `price` is the MRP in rupees, `discount` a percentage 0-100; the selling
 * price is derived (app/lib/money.ts). `sku` keeps the source dataset's ProductID for provenance.
 * `searchText` is a generated tsvector over name and brand for full-text search; a trigram index on
 * the lower-cased name gives typo tolerance ("panner" finds paneer).
 */
export const products = pgTable(
  'products',
  {
    id: id(),
    name: text('name').notNull(),
    image: text('image').array().notNull().default(sql`'{}'::text[]`),
    unit: text('unit').notNull().default(''),
    stock: integer('stock').notNull().default(0),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    discount: numeric('discount', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    description: text('description').notNull().default(''),
    moreDetails: jsonb('more_details').$type<Record<string, string>>().notNull().default({}),
    publish: boolean('publish').notNull().default(true),
    sku: text('sku'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_sku_key').on(t.sku),
    index('products_created_idx').on(t.createdAt.desc(), t.id),
    index('products_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('products_search_idx').using(
      'gin',
      sql`to_tsvector('simple', ${t.name} || ' ' || coalesce(${t.moreDetails}->>'brand', ''))`,
    ),
  ],
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
  (t) => [
    primaryKey({ columns: [t.productId, t.subCategoryId] }),
    index('psc_sub_category_idx').on(t.subCategoryId),
  ],
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
