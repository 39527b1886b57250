/**
 * BFF configuration, read once on the server (never shipped to the browser). See README
 * "Configuration". `BffEnvSchema` declares the variables the BFF reads (zod); `readBffEnv` parses
 * them and fails with one message naming every bad variable and why (server-shared/env.ts
 * `EnvError`). `SESSION_SECRET` signs the cookie session; on the embedded default it is generated and
 * kept in DATA_DIR/secrets.json (server-shared/env.ts `readSecrets`), shared with the API.
 */
import path from 'node:path'
import { z } from 'zod'
import { parseUploadMaxBytes } from '../../contract/file.ts'
import { parseTileUrl, tileImageSource } from '../lib/map-tiles.ts'
import {
  flag,
  httpUrl,
  logLevel,
  logLevelOf,
  paymentProviderName,
  parsePublicUrl,
  readEnvironment,
  readSecrets,
  text,
  variable,
  wholeNumber,
  type LogLevel,
} from '../../server-shared/env.ts'

/** The variables the BFF reads one by one; unset or empty is the default of `readBffEnv`. */
export const BffEnvSchema = z.object({
  NODE_ENV: text,
  DATA_DIR: text,
  API_URL: httpUrl,
  API_TIMEOUT_MS: wholeNumber(0),
  API_INTERNAL_TOKEN: text,
  PUBLIC_URL: variable((raw) => parsePublicUrl(raw)),
  S3_BUCKET: text,
  S3_PUBLIC_URL: httpUrl,
  UPLOAD_MAX_BYTES: variable((raw) => parseUploadMaxBytes(raw)),
  INSECURE_COOKIES: flag,
  PAGE_CACHE_MAX_MB: wholeNumber(0),
  PAGE_CACHE_TTL_MS: wholeNumber(0),
  PAGE_CACHE_STALE_IF_ERROR_MS: wholeNumber(0),
  LOG_LEVEL: logLevel,
  MAP_TILE_URL: variable((raw) => parseTileUrl(raw)),
  MAP_TILE_ATTRIBUTION: text,
})

/** What the BFF knows of its configuration. */
export interface BffEnv {
  /** Base URL of a separately deployed API (`https://api.example.com`); unset = the in-process API. */
  apiUrl: string | undefined
  /**
   * `API_TIMEOUT_MS`: longest wait in ms for a separately deployed API's whole answer
   * (app/.server/upstream.ts), default 5000 (0 too); past it the page answers 503 "back in a moment"
   * instead of leaving the shopper on a blank, loading tab.
   */
  apiTimeoutMs: number
  sessionSecret: string
  /** Sent with `X-Client-Ip` to a separately deployed API so it trusts the forwarded address. */
  apiInternalToken: string | undefined
  isProduction: boolean
  /**
   * The payment provider (`PAYMENT_PROVIDER`, server-shared/env.ts `paymentProviderName`): with
   * `razorpay` the pages' policy allows Razorpay's checkout script, frames and hosted form (app/.server/csp.ts).
   */
  paymentProvider: 'razorpay' | 'test'
  /** The site's public origin for canonical, Open Graph and sitemap URLs; unset = the request's own. */
  publicUrl: string | undefined
  /**
   * Origins images may come from besides ours: the origin of `S3_PUBLIC_URL` with `S3_BUCKET`, where
   * `/uploads/*` redirects (set it on a BFF deployed apart too, so its pages allow those images), and
   * `PUBLIC_URL`, on which the API names its images (api/lib/public-urls.ts).
   */
  imageOrigins: string[]
  /** The upload cap in bytes: `UPLOAD_MAX_BYTES`, the same variable the API reads (contract/file.ts). */
  uploadMaxBytes: number
  /** `Secure` cookies and HSTS: production unless `INSECURE_COOKIES=1`. */
  secureCookies: boolean
  /** `PAGE_CACHE_MAX_MB`: memory of the anonymous page cache in bytes (app/.server/page-cache.ts); 0 turns it off. */
  pageCacheMaxBytes: number
  /** `PAGE_CACHE_TTL_MS`: longest life of a cached page in ms; null = server.ts's default (60 s, or 5 s with `API_URL`). */
  pageCacheTtlMs: number | null
  /**
   * `PAGE_CACHE_STALE_IF_ERROR_MS`: how long past its freshness a cached page is still sent when its
   * new render fails for want of the API (RFC 5861 `stale-if-error`), default 300000 (5 minutes); 0 never.
   */
  pageCacheStaleIfErrorMs: number
  /**
   * `LOG_LEVEL`: the level of the server bundle's logger (app/entry.server.tsx sets it; the bundle has
   * its own copy of server-shared/logger.ts), default `info` (`silent` under a test runner).
   */
  logLevel: LogLevel
  /**
   * `MAP_TILE_URL` and `MAP_TILE_ATTRIBUTION`: the live tracking map's tile server and its credit
   * (app/lib/map-tiles.ts); null (the default): no tiles, the order page draws its own diagram.
   */
  mapTiles: { url: string; attribution: string } | null
}

/** How long past its freshness a kept page may stand in for one the API cannot help render (ms). */
export const DEFAULT_STALE_IF_ERROR_MS = 5 * 60_000

/** Reads the BFF's configuration from `source`; throws one `EnvError` naming every bad variable. */
export function readBffEnv(source: NodeJS.ProcessEnv = process.env): BffEnv {
  const { values: e, groups } = readEnvironment(source, BffEnvSchema, {
    payment: { variables: ['PAYMENT_PROVIDER'], parse: paymentProviderName },
  })
  const isProduction = e.NODE_ENV === 'production'
  const publicUrl = e.PUBLIC_URL
  const s3PublicUrl = e.S3_BUCKET ? e.S3_PUBLIC_URL : undefined
  return {
    apiUrl: e.API_URL,
    apiTimeoutMs: e.API_TIMEOUT_MS || 5000,
    sessionSecret: readSecrets(source, path.resolve(e.DATA_DIR ?? './data'), isProduction).sessionSecret,
    apiInternalToken: e.API_INTERNAL_TOKEN,
    isProduction,
    paymentProvider: groups.payment,
    publicUrl,
    imageOrigins: [
      ...(s3PublicUrl ? [new URL(s3PublicUrl).origin] : []),
      ...(publicUrl ? [publicUrl] : []),
      // The map's tiles are images: their host is allowed only when a tile server is configured.
      ...(e.MAP_TILE_URL ? [tileImageSource(e.MAP_TILE_URL)] : []),
    ],
    uploadMaxBytes: e.UPLOAD_MAX_BYTES ?? parseUploadMaxBytes(undefined),
    secureCookies: isProduction && e.INSECURE_COOKIES !== true,
    pageCacheMaxBytes: (e.PAGE_CACHE_MAX_MB ?? 64) * 1024 * 1024,
    pageCacheTtlMs: e.PAGE_CACHE_TTL_MS ?? null,
    pageCacheStaleIfErrorMs: e.PAGE_CACHE_STALE_IF_ERROR_MS ?? DEFAULT_STALE_IF_ERROR_MS,
    logLevel: logLevelOf(e.LOG_LEVEL, e.NODE_ENV, source),
    mapTiles: e.MAP_TILE_URL ? { url: e.MAP_TILE_URL, attribution: e.MAP_TILE_ATTRIBUTION ?? '' } : null,
  }
}

export const env: BffEnv = readBffEnv()
