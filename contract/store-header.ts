/**
 * The request header naming the shopper's dark store (docs/stores.md, "Location (BFF)"): the BFF sends
 * it on every upstream call from the shopper's location (app/.server/upstream.ts), the API reads it to
 * pick the store whose stock a catalogue, cart or order request speaks for (api/modules/store/service.ts
 * `requestStore`), and cross-origin clients may send it (api/lib/cors.ts). Without it the API serves
 * its default store.
 *
 * Lower case: header names are case-insensitive (RFC 9110 §5.1), and Hono's header validator sees the
 * lower-case names the Fetch `Headers` object yields, so the API's OpenAPI declaration of the header
 * (api/modules/order/routes.ts) must use this spelling.
 */
export const STORE_HEADER = 'x-store-id'
