/**
 * The module layering check (scripts/module-cycles.ts; docs/decisions/0048-module-layering.md): it
 * reads every kind of import, finds two folders importing each other and longer loops, and the
 * repository has none.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeLoops, folderLoops, importsOf, repositoryImports } from './module-cycles.ts'

const edge = (file: string, target: string) => {
  const [, , from] = file.split('/')
  const [, , to] = target.split('/')
  return { from: from!, to: to!, file, target }
}

describe('importsOf', () => {
  it('reads imports, type imports, re-exports and dynamic imports that leave the folder, and nothing else', () => {
    const text = [
      "import { a } from '../payment/refunds.ts'",
      "import type { B } from '../product/reads.ts'",
      "export { c } from '../search/service.ts'",
      "const d = await import('../store/service.ts')",
      "import { e } from './placement.ts'",
      "import { f } from '../../lib/errors.ts'",
      "import { z } from 'zod'",
    ].join('\n')
    expect(importsOf('api/modules/order/service.ts', text).map((i) => `${i.to} ${i.target}`)).toEqual([
      'payment api/modules/payment/refunds.ts',
      'product api/modules/product/reads.ts',
      'search api/modules/search/service.ts',
      'store api/modules/store/service.ts',
    ])
  })

  it('places a file of a nested folder in its module', () => {
    expect(importsOf('api/modules/payment/model/commands.ts', "import { x } from '../../order/service.ts'")).toEqual([
      edge('api/modules/payment/model/commands.ts', 'api/modules/order/service.ts'),
    ])
  })
})

describe('folderLoops', () => {
  it('finds two folders importing each other, with the imports that do it', () => {
    const imports = [
      edge('api/modules/order/service.ts', 'api/modules/payment/refunds.ts'),
      edge('api/modules/payment/service.ts', 'api/modules/order/service.ts'),
      edge('api/modules/payment/service.ts', 'api/modules/store/service.ts'),
    ]
    expect(describeLoops(folderLoops(imports))).toEqual([
      'order <-> payment import each other: api/modules/order/service.ts -> api/modules/payment/refunds.ts, api/modules/payment/service.ts -> api/modules/order/service.ts',
    ])
  })

  it('finds a loop round three folders and leaves a plain chain alone', () => {
    const loop = [
      edge('api/modules/a/x.ts', 'api/modules/b/x.ts'),
      edge('api/modules/b/x.ts', 'api/modules/c/x.ts'),
      edge('api/modules/c/x.ts', 'api/modules/a/x.ts'),
    ]
    expect(folderLoops(loop).map((l) => l.folders)).toEqual([['a', 'b', 'c']])
    expect(folderLoops(loop.slice(0, 2))).toEqual([])
  })
})

describe('the repository', () => {
  it('has no two module folders importing each other', () => {
    expect(describeLoops(folderLoops(repositoryImports(path.resolve(import.meta.dirname, '..'))))).toEqual([])
  })
})
