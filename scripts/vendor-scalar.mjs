/**
 * Copies Scalar's standalone browser bundle (@scalar/api-reference, a development dependency) into
 * build/vendor/, where the API's reference page serves it from (api/modules/reference/routes.ts),
 * so a production install without development dependencies still has it (docs/api.md).
 */
import fs from 'node:fs'
import path from 'node:path'

const source = path.resolve('node_modules/@scalar/api-reference/dist/browser/standalone.js')
const target = path.resolve('build/vendor/scalar-api-reference.js')
fs.mkdirSync(path.dirname(target), { recursive: true })
fs.copyFileSync(source, target)
console.log(`copied the API reference bundle to ${path.relative(process.cwd(), target)}`)
