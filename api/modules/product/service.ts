/**
 * The product module's services in one place, for its routes and for other modules: reads
 * (./reads.ts), writes (./writes.ts) and search (api/modules/search/service.ts).
 */
export * from './reads.ts'
export * from './writes.ts'
export { searchProducts } from '../search/service.ts'
