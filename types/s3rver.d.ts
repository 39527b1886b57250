/** The part of s3rver (a local S3-compatible server, tests only) the tests use; it ships no types. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'
  interface S3rverOptions {
    address?: string
    port?: number
    silent?: boolean
    directory: string
    configureBuckets?: Array<{ name: string; configs: unknown[] }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
