/**
 * The product module's services in one place, for its routes and for other modules: reads
 * (./reads.ts) and writes (./writes.ts). The search (api/modules/search/service.ts) builds on these
 * reads; this module never imports it (docs/decisions/0048-module-layering.md).
 */
export * from './reads.ts'
export * from './writes.ts'
