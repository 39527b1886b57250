/**
 * S3-compatible object storage behind the `Storage` interface (docs/decisions/0012-object-storage.md):
 * AWS S3, Cloudflare R2, MinIO and other S3 speakers, through the AWS SDK v3 S3 client. Objects are
 * content-addressed and immutable (written once with a year-long `Cache-Control`); their public url
 * stays `/uploads/<key>`, served by server.ts from the bucket, or redirected to `publicUrl` (a CDN
 * or the bucket's public host) when set.
 *
 * Checksums: the SDK's default since 2025 adds CRC32 checksums that several S3-compatible servers
 * reject; they are sent only when an operation requires them (AWS SDK for JavaScript v3 docs,
 * "Data integrity protections": `requestChecksumCalculation: 'WHEN_REQUIRED'`).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import type { Readable } from 'node:stream'
import { contentTypeOf, STORAGE_KEY, type Storage } from './storage.ts'

/** Where the bucket is and how to reach it. */
export interface S3Settings {
  bucket: string
  /** e.g. `https://<account>.r2.cloudflarestorage.com` or `http://minio:9000`; unset = AWS. */
  endpoint?: string
  region: string
  accessKeyId?: string
  secretAccessKey?: string
  /** Path-style urls (`endpoint/bucket/key`), as MinIO and most self-hosted servers need. */
  forcePathStyle: boolean
  /** A public base url of the bucket's objects (a CDN); `/uploads/<key>` then redirects there. */
  publicUrl?: string
  /** Key prefix inside the bucket (default none). */
  prefix?: string
}

const notFound = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata?.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey')

/** An S3 client for `settings` (credentials from the settings, else the SDK's default chain). */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

/** The store on the bucket of `settings`, public under `publicPrefix` (default `/uploads`). */
export function createS3Storage(
  settings: S3Settings,
  publicPrefix = '/uploads',
  client: S3Client = createS3Client(settings),
): Storage & { publicUrl?: string } {
  const objectKey = (key: string) => {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`)
    return `${settings.prefix ?? ''}${key}`
  }
  return {
    publicUrl: settings.publicUrl?.replace(/\/$/, ''),
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      )
      return `${publicPrefix}/${key}`
    },
    async delete(key) {
      // Deleting a missing key is a success in S3 (DeleteObject is idempotent).
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }))
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }))
        return true
      } catch (err) {
        if (notFound(err)) return false
        throw err
      }
    },
    async read(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }))
        if (!answer.Body) return null
        return { body: answer.Body as Readable, contentType: answer.ContentType ?? contentTypeOf(key), contentLength: answer.ContentLength }
      } catch (err) {
        if (notFound(err)) return null
        throw err
      }
    },
    urlFor: (key) => `${publicPrefix}/${key}`,
    keyFor(url) {
      const prefix = `${publicPrefix}/`
      return url.startsWith(prefix) ? url.slice(prefix.length) : null
    },
  }
}
