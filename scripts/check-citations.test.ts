/**
 * The citation check (scripts/check-citations.ts): it refuses every form that points outside the
 * repository, accepts a standard's numbered section, checks cited headings word for word (also when a
 * citation wraps over comment lines), refuses docs/product.md (and, in code, any long document) cited
 * as a whole, holds every decision record to docs/decisions/template.md, and passes on the repository
 * as it is.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  checkRepository,
  decisionRecordProblems,
  findProblems,
  headingRequiredInCode,
  headingsOf,
  joinCommentLines,
  LONG_DOCUMENT_LINES,
} from './check-citations.ts'

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

describe('findProblems: docs/product.md names its heading', () => {
  it('refuses docs/product.md cited as a whole, in a comment or a document', () => {
    const whole = 'docs/product.md cited as a whole: cite the heading that states the rule, docs/product.md, "Heading"'
    expect(problems('// the rule (docs/product.md)')).toEqual([whole])
    expect(problems('/** Bounds as in docs/product.md. */')).toEqual([whole])
    expect(problems('Product rules: `docs/product.md`.')).toEqual([whole])
  })

  it('accepts it with a heading, and other documents as a whole', () => {
    expect(problems('// (docs/product.md, "Validation rules")')).toEqual([])
    expect(problems('// see docs/decisions/0008-x.md and README.md')).toEqual([])
  })
})

describe('headingRequiredInCode: long documents name their heading in code', () => {
  it('requires a heading for docs/product.md and any docs/ document over the line bar, never a decision record', () => {
    expect(headingRequiredInCode('docs/product.md', 10)).toBe(true)
    expect(headingRequiredInCode('docs/commerce-api.md', LONG_DOCUMENT_LINES + 1)).toBe(true)
    expect(headingRequiredInCode('docs/seo.md', LONG_DOCUMENT_LINES)).toBe(false)
    expect(headingRequiredInCode('docs/decisions/0008-x.md', 10 * LONG_DOCUMENT_LINES)).toBe(false)
    expect(headingRequiredInCode('README.md', 10 * LONG_DOCUMENT_LINES)).toBe(false)
  })

  it('refuses such a document cited as a whole and accepts it with a heading', () => {
    const long = (doc: string) => headingRequiredInCode(doc, doc === 'README.md' ? 10 * LONG_DOCUMENT_LINES : LONG_DOCUMENT_LINES + 1)
    const headings = (doc: string) => (doc === 'docs/commerce-api.md' ? new Set(['Cart']) : headingsFor(doc))
    expect(findProblems('/** Limits (docs/commerce-api.md). */', headings, long)).toEqual([
      'docs/commerce-api.md cited as a whole: cite the heading that states the rule, docs/commerce-api.md, "Heading"',
    ])
    expect(findProblems('/** Limits (docs/commerce-api.md, "Cart"); README.md. */', headings, long)).toEqual([])
  })
})

describe('decisionRecordProblems', () => {
  const NAME = '0002-short-name.md'
  const INDEX = '| [0002](0002-short-name.md) | Short name | Accepted | 2026-11-21 |'
  const NUMBERS = new Set(['0001', '0002'])
  const record = (header: string, sections = '## Context\nWhy.\n\n## Decision\nWhat.\n\n## Consequences\nThen.\n') =>
    `# 0002. Short name\n\n${header}\n\n${sections}`
  const check = (text: string, index = INDEX) => decisionRecordProblems(NAME, text, NUMBERS, index)

  it('accepts a record on the template, with sub-headings and an Alternatives section', () => {
    expect(check(record('- Date: 2026-11-21\n- Status: Accepted'))).toEqual([])
    expect(check(record('- Date: 2026-11-21\n- Status: Superseded by 0001 for its ranking'))).toEqual([])
    const more = '## Context\nWhy.\n\n## Decision\n### Part one\nWhat.\n\n## Consequences\nThen.\n\n## Alternatives considered\nNone.\n'
    expect(check(record('- Date: 2026-11-21\n- Status: Proposed\n- Supersedes: 0001 (its ranking)', more))).toEqual([])
  })

  it('refuses a record in the old free forms', () => {
    expect(check('# 2. Short name\n\nStatus: accepted\n\n## Context\nWhy.\n\n## Decision\nWhat.\n\n## Consequences\nThen.\n')).toEqual([
      'line 1: the title line is "# 0002. Title"',
      'no "- Date: YYYY-MM-DD" line under the title',
      'no "- Status: Proposed|Accepted|Deprecated|Superseded by NNNN" line under the title',
    ])
    expect(check('# 0002 — Short name\n\nStatus: accepted. Context: why.\n\n- **A part.** What.\n')).toEqual([
      'line 1: the title line is "# 0002. Title"',
      'no "- Date: YYYY-MM-DD" line under the title',
      'no "- Status: Proposed|Accepted|Deprecated|Superseded by NNNN" line under the title',
      'no "## Context" section',
      'no "## Decision" section',
      'no "## Consequences" section',
    ])
  })

  it('refuses a bad date or status, a missing or fenced section, an unknown successor and a missing index line', () => {
    expect(check(record('- Date: 21 Nov 2026\n- Status: Accepted'))).toEqual(['no "- Date: YYYY-MM-DD" line under the title'])
    expect(check(record('- Date: 2026-11-21\n- Status: Done'))).toEqual([
      'no "- Status: Proposed|Accepted|Deprecated|Superseded by NNNN" line under the title',
    ])
    expect(check(record('- Date: 2026-11-21\n- Status: Superseded by 0099'))).toEqual(['"Superseded by 0099": no such record'])
    expect(check(record('- Date: 2026-11-21\n- Status: Accepted', '## Context\nWhy.\n\n## Decision\n```\n## Consequences\n```\n'))).toEqual(
      ['no "## Consequences" section'],
    )
    expect(check(record('- Date: 2026-11-21\n- Status: Accepted'), '')).toEqual(["not listed in docs/decisions/README.md's index"])
    expect(decisionRecordProblems('0002_Short.md', '', NUMBERS, INDEX)).toEqual([
      '"0002_Short.md": a record is named NNNN-short-name.md (lower case, digits and dashes)',
    ])
  })

  it('reads the fields under the title only, not in the body', () => {
    expect(
      check(record('', '## Context\n- Date: 2026-11-21\n- Status: Accepted\n\n## Decision\nWhat.\n\n## Consequences\nThen.\n')),
    ).toEqual([
      'no "- Date: YYYY-MM-DD" line under the title',
      'no "- Status: Proposed|Accepted|Deprecated|Superseded by NNNN" line under the title',
    ])
  })
})

describe('the repository', () => {
  it('cites only documents and headings it holds, and keeps every decision record on the template', () => {
    expect(checkRepository(path.resolve(import.meta.dirname, '..'))).toEqual([])
  })
})
