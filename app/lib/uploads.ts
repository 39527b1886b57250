/**
 * Upload limits shared by every form that sends a file (avatar, category and sub category images,
 * product images). They mirror the API's cap (api/config.ts `UPLOAD_MAX_BYTES`, 5 MB by default; it
 * answers 413 beyond), so the BFF can refuse an oversized body before reading it.
 */

/** The largest image file accepted, in bytes (5 MB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024

/** Room for the multipart boundaries and the other fields around one file, in bytes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024
