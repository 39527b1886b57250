/**
 * The shopper's delivery location and the dark stores that serve it (docs/stores.md): the bodies and
 * answers of /api/location, /api/store and /api/inventory, shared by the API and the BFF.
 *
 * - A location is a 6-digit Indian PIN code (India Post, "Know your PIN code": first digit 1-9), or
 *   coordinates (WGS 84 degrees) that resolve to the nearest PIN code, or a saved address.
 * - A store serves the PIN codes whose centre lies within its radius (km) of the store.
 * - Times of day are "HH:MM" in India Standard Time (UTC+05:30, no daylight saving); "24:00" closes
 *   at midnight; a closing time before the opening time runs past midnight.
 */
import { z } from 'zod'
import { decimalNumber, IdSchema, TargetIdSchema, lineText } from './fields.ts'
import { CartChangeSchema } from './order.ts'
import { GstinSchema } from './invoice.ts'

/** A PIN code: 6 digits, the first 1-9 (India Post). */
export const PINCODE_PATTERN = /^[1-9][0-9]{5}$/
/** Message when a PIN code is not one. */
export const PINCODE_MESSAGE = 'Enter a valid 6-digit pincode'

export const PincodeSchema = z
  .string({ error: PINCODE_MESSAGE })
  .trim()
  .regex(PINCODE_PATTERN, PINCODE_MESSAGE)
  .meta({ pattern: '^[1-9][0-9]{5}$' })

/**
 * A latitude or longitude in degrees, given as a number or as plain decimal text (form posts and the
 * query of GET /api/location/resolve send text): `"0x10"`, `"1e1"` and `""` are refused, not read as
 * 16, 10 and 0 (`decimalNumber`, ./fields.ts).
 */
function degrees(label: string, max: number) {
  return decimalNumber(`${label} must be a number`, `${label} is required`)
    .pipe(z.number().min(-max, `${label} is out of range`).max(max, `${label} is out of range`))
    .meta({ type: 'number', minimum: -max, maximum: max })
}
export const LatitudeSchema = degrees('Latitude', 90)
export const LongitudeSchema = degrees('Longitude', 180)

/** A time of day "HH:MM" (00:00..24:00) in India Standard Time. */
export const TIME_OF_DAY_PATTERN = /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/
export const TimeOfDaySchema = z
  .string({ error: 'Expected a time like 07:00' })
  .trim()
  .regex(TIME_OF_DAY_PATTERN, 'Expected a time like 07:00')
  .meta({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' })

/**
 * GET /api/location/resolve and PUT /api/location: one way to name the place: a `pincode`,
 * coordinates (`lat` and `lng`), or one of the signed-in shopper's saved addresses (`addressId`,
 * PUT only). Given several, the first of that order is used (the others are dropped).
 */
export const LocationQuerySchema = z.union(
  [z.object({ pincode: PincodeSchema }), z.object({ lat: LatitudeSchema, lng: LongitudeSchema }), z.object({ addressId: IdSchema })],
  {
    error: (iss) => {
      const input = (iss.input ?? {}) as Record<string, unknown>
      if (input.pincode !== undefined) return PINCODE_MESSAGE
      if (input.lat !== undefined && input.lng !== undefined) {
        // Both given: say which one is wrong ("Latitude must be a number", "… is out of range").
        const wrong = LatitudeSchema.safeParse(input.lat).error ?? LongitudeSchema.safeParse(input.lng).error
        if (wrong) return wrong.issues[0]?.message
      }
      if (input.lat !== undefined || input.lng !== undefined) return 'Give both latitude and longitude, in degrees'
      return 'Enter your pincode'
    },
  },
)
/** The header a client names its delivery store with (docs/stores.md, "Location"): any id; an unknown one is the default store. */
export const StoreIdHeaderSchema = z
  .string()
  .max(200)
  .optional()
  .meta({ description: "The dark store of the shopper's location (docs/stores.md); absent or unknown: the default store" })
export type LocationQuery = z.output<typeof LocationQuerySchema>

/** A store as a shopper sees it: where it is and when it is open. */
export const StoreSummarySchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    area: z.string(),
    city: z.string(),
    pincode: z.string(),
    opensAt: z.string(),
    closesAt: z.string(),
    /** Open at the time of the answer: within its hours and not paused. */
    open: z.boolean(),
    /** Why it is closed besides its hours: the admin's pause note ("Closed for stock-taking"); null otherwise. */
    closedNote: z.string().nullable(),
  })
  .meta({ id: 'StoreSummary' })
export type StoreSummary = z.output<typeof StoreSummarySchema>

/**
 * Where a shopper is and what serves them. `serviceable` false: no active store reaches `pincode`
 * (`store` and `deliveryMinutes` null), and `nearest` names the nearest served area. Otherwise
 * `store` is the nearest active store whose radius holds the PIN code's centre, `deliveryMinutes`
 * the promised time now (docs/stores.md, "Delivery time"), `distanceKm` the straight-line distance.
 */
export const LocationSchema = z
  .object({
    pincode: z.string(),
    area: z.string(),
    district: z.string(),
    state: z.string(),
    serviceable: z.boolean(),
    store: StoreSummarySchema.nullable(),
    deliveryMinutes: z.number().int().nullable(),
    distanceKm: z.number().nullable(),
    nearest: z
      .object({ area: z.string(), pincode: z.string(), city: z.string(), distanceKm: z.number() })
      .nullable()
      .meta({ id: 'NearestServedArea' }),
  })
  .meta({ id: 'Location' })
export type Location = z.output<typeof LocationSchema>

/** PUT /api/location's extras beside `data`: what changed in the caller's cart for the new store. */
export const LocationExtraShape = { cartChanges: z.array(CartChangeSchema) }

/** Longest store name, area and city, and address line, in characters. */
export const STORE_NAME_MAX = 80
export const STORE_ADDRESS_MAX = 200
/** Bounds of a store's radius, km, and of its pickers. */
export const STORE_RADIUS_MIN_KM = 0.5
export const STORE_RADIUS_MAX_KM = 15
export const STORE_PICKERS_MAX = 200
/**
 * Bounds of a store's own rider speed, km/h (docs/stores.md, "Delivery time"): a bicycle's pace at
 * the least, an Indian city road's usual limit for two-wheelers at the most.
 */
export const STORE_RIDER_KMPH_MIN = 5
export const STORE_RIDER_KMPH_MAX = 60

// Text through decimalNumber (./fields.ts): "" is not 0 nor "0x5" 5.
const radius = decimalNumber('Radius must be a number')
  .pipe(
    z
      .number()
      .min(STORE_RADIUS_MIN_KM, `Radius must be at least ${STORE_RADIUS_MIN_KM} km`)
      .max(STORE_RADIUS_MAX_KM, `Radius must be at most ${STORE_RADIUS_MAX_KM} km`),
  )
  .meta({ type: 'number', minimum: STORE_RADIUS_MIN_KM, maximum: STORE_RADIUS_MAX_KM })
const pickers = decimalNumber('Pickers must be a whole number')
  .pipe(
    z
      .number()
      .int('Pickers must be a whole number')
      .min(1, 'Pickers must be at least 1')
      .max(STORE_PICKERS_MAX, `Pickers must be at most ${STORE_PICKERS_MAX}`),
  )
  .meta({ type: 'integer', minimum: 1, maximum: STORE_PICKERS_MAX })
/** A store's own rider speed, km/h, rounded to one decimal ("" from a form: none, the global `DELIVERY_RIDER_KMPH`). */
const riderKmph = decimalNumber('Rider speed must be a number')
  .pipe(
    z
      .number()
      .min(STORE_RIDER_KMPH_MIN, `Rider speed must be at least ${STORE_RIDER_KMPH_MIN} km/h`)
      .max(STORE_RIDER_KMPH_MAX, `Rider speed must be at most ${STORE_RIDER_KMPH_MAX} km/h`)
      // Kept to one decimal (the column is numeric(3,1)): 12.34 is 12.3.
      .transform((v) => Math.round(v * 10) / 10),
  )
  .meta({ type: 'number', minimum: STORE_RIDER_KMPH_MIN, maximum: STORE_RIDER_KMPH_MAX })
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0']).transform((v) => v === 'true' || v === 'on' || v === '1')])
  .meta({ anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false', 'on', '1', '0'] }] })

/** A store's invoice series code: 1-4 capitals or digits, the head of its invoice numbers (`BLR1/26-27/00001`). */
export const INVOICE_CODE_PATTERN = /^[A-Z0-9]{1,4}$/
export const INVOICE_CODE_MESSAGE = 'Invoice code must be 1 to 4 letters or digits (e.g. BLR1)'
export const InvoiceCodeSchema = z
  .string({ error: 'Invoice code must be text' })
  .trim()
  .toUpperCase()
  .regex(INVOICE_CODE_PATTERN, INVOICE_CODE_MESSAGE)
  .meta({ pattern: '^[A-Za-z0-9]{1,4}$' })

/**
 * A store's tax identity (docs/decisions/0042-invoice-and-credit-note-numbering.md): its GSTIN (its
 * first two digits must be the state code of the store's PIN code), the registered address printed on
 * its invoices, and its invoice series code. Null GSTIN or address: the seller's settings and the
 * store's own address line are printed instead.
 */
const storeTaxShape = {
  gstin: GstinSchema.nullish(),
  registeredAddress: lineText('Registered address', STORE_ADDRESS_MAX).nullish(),
  invoiceCode: InvoiceCodeSchema.optional(),
}

/** POST /api/store/create: a new dark store. Coordinates default to the PIN code's centre. */
export const CreateStoreSchema = z.object({
  name: lineText('Name', STORE_NAME_MAX),
  area: lineText('Area', STORE_NAME_MAX),
  city: lineText('City', STORE_NAME_MAX),
  addressLine: lineText('Address', STORE_ADDRESS_MAX),
  pincode: PincodeSchema,
  lat: LatitudeSchema.nullish(),
  lng: LongitudeSchema.nullish(),
  radiusKm: radius.default(3),
  opensAt: TimeOfDaySchema.default('06:00'),
  closesAt: TimeOfDaySchema.default('24:00'),
  pickers: pickers.default(4),
  /** The store's own rider speed, km/h; none or null: the global `DELIVERY_RIDER_KMPH` (docs/stores.md, "Delivery time"). */
  riderKmph: riderKmph.nullish(),
  active: flag.default(true),
  ...storeTaxShape,
  /** An existing store whose stock the new store starts with (every product's units copied); none: it starts empty. */
  copyStockFrom: IdSchema.optional(),
})
export type CreateStoreInput = z.output<typeof CreateStoreSchema>

/** Longest pause note (characters): it stands in the header and on cards in place of the opening time. */
export const STORE_PAUSE_NOTE_MAX = 60

/** PUT /api/store/update: `_id`, the read `version` (optimistic concurrency) and the fields to change. */
export const UpdateStoreSchema = z.object({
  _id: TargetIdSchema,
  version: z.coerce.number().int().min(1).optional().meta({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  name: lineText('Name', STORE_NAME_MAX).optional(),
  area: lineText('Area', STORE_NAME_MAX).optional(),
  city: lineText('City', STORE_NAME_MAX).optional(),
  addressLine: lineText('Address', STORE_ADDRESS_MAX).optional(),
  pincode: PincodeSchema.optional(),
  lat: LatitudeSchema.nullish(),
  lng: LongitudeSchema.nullish(),
  radiusKm: radius.optional(),
  opensAt: TimeOfDaySchema.optional(),
  closesAt: TimeOfDaySchema.optional(),
  pickers: pickers.optional(),
  /** The store's own rider speed, km/h; null: back to the global `DELIVERY_RIDER_KMPH`. */
  riderKmph: riderKmph.nullish(),
  active: flag.optional(),
  /** Pause the store with this note ("Closed for stock-taking"); null reopens it (docs/stores.md, "Pausing a store"). */
  pausedNote: lineText('Pause note', STORE_PAUSE_NOTE_MAX).nullable().optional(),
  ...storeTaxShape,
})
export type UpdateStoreInput = z.output<typeof UpdateStoreSchema>

/** A store as the admin sees it (every field). `lat`/`lng` are the coordinates in use. */
export const StoreSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    area: z.string(),
    city: z.string(),
    addressLine: z.string(),
    pincode: z.string(),
    lat: z.number(),
    lng: z.number(),
    /** True when `lat`/`lng` are the PIN code's centre (no coordinates of its own). */
    coordinatesFromPincode: z.boolean(),
    radiusKm: z.number(),
    opensAt: z.string(),
    closesAt: z.string(),
    pickers: z.number().int(),
    /** Its own rider speed, km/h, for its delivery minutes; null: the global `DELIVERY_RIDER_KMPH` (docs/stores.md, "Delivery time"). */
    riderKmph: z.number().nullable(),
    active: z.boolean(),
    position: z.number().int(),
    /** Orders placed or packed, not yet out for delivery (the queue of the delivery time). */
    openOrders: z.number().int(),
    /** The GSTIN on its invoices; null: the seller's (SELLER_GSTIN). */
    gstin: z.string().nullable(),
    /** The registered address on its invoices; null: its address line, city and PIN code. */
    registeredAddress: z.string().nullable(),
    /** The head of its invoice and credit-note numbers. */
    invoiceCode: z.string(),
    /** The admin's pause note: no orders while set; null: not paused. */
    pausedNote: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Store' })
export type Store = z.output<typeof StoreSchema>

/** Largest stock a store can hold of one product, in units. */
export const STOCK_MAX = 1_000_000

/** A store's stock of one product: a whole number of units, as a number or plain decimal text ("" is not 0; ./fields.ts `decimalNumber`). */
export const StockSchema = decimalNumber('Stock must be a whole number')
  .pipe(
    z.number().int('Stock must be a whole number').min(0, 'Stock cannot be negative').max(STOCK_MAX, `Stock must be at most ${STOCK_MAX}`),
  )
  .meta({ type: 'integer', minimum: 0, maximum: STOCK_MAX })

/** Low stock: at most this many units left ("Only 3 left"; the admin's low-stock filter). */
export const LOW_STOCK = 5

/** POST /api/inventory/list: one store's stock, searched by name, brand or SKU, optionally only low stock. */
export const InventoryListSchema = z.object({
  storeId: IdSchema,
  search: z.string().max(200).nullish(),
  /** `low`: 0 < stock ≤ LOW_STOCK; `out`: stock 0. */
  filter: z.enum(['all', 'low', 'out']).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})
export type InventoryListInput = z.output<typeof InventoryListSchema>

/** One product's stock in one store. */
export const InventoryRowSchema = z
  .object({
    storeId: z.string(),
    productId: z.string(),
    name: z.string(),
    unit: z.string(),
    brand: z.string(),
    sku: z.string().nullable(),
    image: z.string(),
    stock: z.number().int(),
    publish: z.boolean(),
  })
  .meta({ id: 'InventoryRow' })
export type InventoryRow = z.output<typeof InventoryRowSchema>

/** PUT /api/inventory/update: set the stock of products in stores (at most 100 rows, one transaction). */
export const UpdateInventorySchema = z.object({
  rows: z
    .array(z.object({ storeId: IdSchema, productId: IdSchema, stock: StockSchema }))
    .min(1, 'Nothing to update')
    .max(100, 'At most 100 rows at once'),
})
export type UpdateInventoryInput = z.output<typeof UpdateInventorySchema>

/** POST /api/inventory/product `{ productId }`: the product's stock in every store. */
export const ProductStockQuerySchema = z.object({ productId: IdSchema })
/** One store's stock of the product. */
export const ProductStockSchema = z
  .object({ storeId: z.string(), storeName: z.string(), active: z.boolean(), stock: z.number().int() })
  .meta({ id: 'ProductStoreStock' })
export type ProductStock = z.output<typeof ProductStockSchema>
