/**
 * The citation check (scripts/check-citations.ts): it refuses every form that points outside the
 * repository, accepts a standard's numbered section, checks cited headings word for word (also when a
 * citation wraps over comment lines), and passes on the repository as it is.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkRepository, findProblems, headingsOf, joinCommentLines } from './check-citations.ts'

const PRODUCT = headingsOf('# The product\n\n## Validation rules\n\n### Reset password\n\n```\n## Not a heading\n```\n')
const DECISION = headingsOf('## Decision\n- **Guard first.** Every write route is guarded.\n')
const docs: Record<string, Set<string>> = {
  'docs/product.md': PRODUCT,
  'docs/decisions/0008-x.md': DECISION,
  'README.md': new Set(['Credits']),
}
const headingsFor = (doc: string) => docs[doc] ?? null
const problems = (text: string) => findProblems(text, headingsFor)

describe('headingsOf', () => {
  it('reads ATX headings and bold list labels, not lines inside a code fence', () => {
    expect([...PRODUCT]).toEqual(['The product', 'Validation rules', 'Reset password'])
    expect(DECISION.has('Guard first')).toBe(true)
  })
})

describe('findProblems: forbidden citation forms', () => {
  it.each([
    ['// Required (spec section 5).', 'spec'],
    ['/** Spec section 9: page size. */', 'Spec'],
    ["// the spec's placeholder", "spec's"],
    ['// as in (spec "Home")', 'spec'],
    ['// see section 4 "Login success"', 'section 4'],
    ['// (issue 4 item 8: no orphaned files)', 'issue 4'],
    ['// Issue 3 items 1 and 3', 'Issue 3'],
    ['// (contract, "Defects")', 'contract, "'],
    ['// (contract: "limit is capped")', '(contract:'],
    ["// in the contract's shape", "the contract's"],
    ['// (DEVELOPERS.md, "Email")', 'DEVELOPERS.md'],
    ['// (stack notes)', 'stack notes'],
    ['// a copy of ../shared/catalog/x.csv', '../shared/'],
    ['// Look and feel (style.md)', 'style.md'],
  ])('refuses %s', (text, form) => {
    const found = problems(text)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]).toContain(`"${form}`)
  })

  it("accepts a standard's numbered section, test file names and the contract/ folder", () => {
    expect(problems('// a clean path segment (RFC 3986 section 3.3); RFC 2045, section 6')).toEqual([])
    expect(problems("import './admin.spec.ts' // tests/e2e/admin.spec.ts; RuleSpec")).toEqual([])
    expect(problems('// shared with the contract/ folder: contract/address.ts')).toEqual([])
  })
})

describe('findProblems: cited documents and headings', () => {
  it('accepts an existing heading, several headings, a bold label and a bare document', () => {
    expect(problems('// (docs/product.md, "Validation rules")')).toEqual([])
    expect(problems('// (docs/product.md, "Validation rules" and "Reset password")')).toEqual([])
    expect(problems('// (docs/decisions/0008-x.md, "Guard first"; README.md, "Credits")')).toEqual([])
    expect(problems('// see docs/decisions/0008-x.md')).toEqual([])
  })

  it('refuses a heading that is not word for word, and a document that does not exist', () => {
    expect(problems('// (docs/product.md, "Validation rule")')).toEqual([
      'docs/product.md, "Validation rule": no such heading in docs/product.md',
    ])
    expect(problems('// (docs/product.md, "Validation rules" and "Reset Password")')).toEqual([
      'docs/product.md, "Reset Password": no such heading in docs/product.md',
    ])
    expect(problems('// (docs/nowhere.md)')).toEqual(['docs/nowhere.md: no such file'])
  })

  it('reads a citation wrapped over comment lines as one', () => {
    const wrapped = '/**\n * the rule (docs/product.md, "Validation\n * rules") and more\n */'
    expect(joinCommentLines(wrapped)).toContain('docs/product.md, "Validation rules")')
    expect(problems(wrapped)).toEqual([])
    expect(problems('// (docs/product.md, "Reset\n// passwords")')).toEqual([
      'docs/product.md, "Reset passwords": no such heading in docs/product.md',
    ])
  })
})

describe('the repository', () => {
  it('cites only documents and headings it holds', () => {
    expect(checkRepository(path.resolve(import.meta.dirname, '..'))).toEqual([])
  })
})
