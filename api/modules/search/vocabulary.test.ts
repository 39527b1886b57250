/**
 * The search vocabulary's data file (api/db/seed/data/synonyms.csv; docs/search.md, "Synonyms") and
 * the words a search leaves out (api/modules/search/terms.ts `CONNECTIVES`): at least 300 rows, each
 * with a source its header lists; the regional names the catalogue itself prints; the pairs said to come
 * from the catalogue are in it.
 */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { BUNDLED_CATALOG_CSV } from '../../db/seed/ensure.ts'
import { readSynonymsCsv, SYNONYMS_CSV, SYNONYM_SEEDS } from '../../db/seed/synonyms.ts'
import { searchTerms } from './terms.ts'
import { synonymMap } from './synonyms.ts'

const text = fs.readFileSync(SYNONYMS_CSV, 'utf8')
const rows = readSynonymsCsv(text)
/** The source keys the data file's header lists after "# Sources:" ("#   key   description"). */
const lines = text.split('\n')
const sourceKeys = new Set(
  lines
    .slice(lines.indexOf('# Sources:') + 1)
    .filter((line) => /^#\s{3}\S/.test(line))
    .map((line) => line.slice(1).trim().split(/\s+/)[0]!),
)

describe('the vocabulary data file', () => {
  it('has at least 300 rows, every one with a source its header lists', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300)
    expect(sourceKeys).toEqual(
      new Set(['mcgregor', 'platts', 'kittel', 'tamil-lexicon', 'brown', 'molesworth', 'biswas', 'wiktionary', 'wikipedia', 'catalogue']),
    )
    const unlisted = rows.filter((r) => !sourceKeys.has(r.source.split(':')[0]!.trim()))
    expect(unlisted.map((r) => `${r.word} (${r.source})`)).toEqual([])
  })

  it('keeps the first 126 rows in the first batch, so a database seeded before gets only the new ones', () => {
    expect(rows.filter((r) => r.seed === '2026-11')).toHaveLength(126)
    expect(Object.keys(SYNONYM_SEEDS)).toEqual(['2026-11', '2026-12', '2027-01', '2027-02'])
  })

  it('covers everyday words and the regional names the catalogue prints', () => {
    const means = (word: string) => rows.filter((r) => r.word === word && r.kind === 'word').map((r) => r.means)
    expect(means('pudina')).toContain('mint')
    expect(means('kesar')).toEqual(['saffron'])
    expect(means('achar')).toEqual(['pickle'])
    expect(means('cold drink')).toEqual(['soft drink'])
    expect(means('capparadavare')).toEqual(['rajma'])
    expect(means('uppu')).toEqual(['salt'])
    // Hindi, Kannada, Tamil, Telugu, Marathi and Bengali sources are all used.
    const used = new Set(rows.map((r) => r.source.split(':')[0]))
    for (const key of ['mcgregor', 'kittel', 'tamil-lexicon', 'brown', 'molesworth', 'biswas', 'catalogue']) expect(used).toContain(key)
  })

  it('names only pairs the bundled catalogue really prints when it cites the catalogue', () => {
    const catalogue = parse(fs.readFileSync(BUNDLED_CATALOG_CSV), { columns: true }) as Array<{ ProductName: string }>
    const productNames = catalogue.map((r) => r.ProductName.toLowerCase())
    const cited = rows.filter((r) => r.source.startsWith('catalogue:'))
    expect(cited.length).toBeGreaterThanOrEqual(30)
    for (const r of cited) {
      const quoted = r.source
        .slice('catalogue:'.length)
        .trim()
        .replace(/\s*\(.*\)$/, '')
        .toLowerCase()
      expect(
        productNames.some((name) => name.includes(quoted)),
        `${r.word}: "${quoted}"`,
      ).toBe(true)
    }
  })

  it('marks brands, which map one way only, and reads a brand row apart from the words', () => {
    const brands = rows.filter((r) => r.kind === 'brand')
    expect(brands.map((r) => r.word)).toEqual(expect.arrayContaining(['parle', 'parle g', 'coke', 'haldiram', 'nutella']))
    expect(brands.every((r) => !r.bothWays)).toBe(true)
    expect(synonymMap(brands).get('parle g')).toEqual([['biscuits']])
  })

  it('refuses a row without a source or with an unknown kind or batch', () => {
    const header = 'word,means,both_ways,kind,source,seed\n'
    expect(() => readSynonymsCsv(`${header}doodh,milk,0,word,,2026-11\n`)).toThrow(/malformed/)
    expect(() => readSynonymsCsv(`${header}doodh,milk,0,thing,mcgregor,2026-11\n`)).toThrow(/malformed/)
    expect(() => readSynonymsCsv(`${header}doodh,milk,0,word,mcgregor,2030-01\n`)).toThrow(/malformed/)
    expect(readSynonymsCsv(`# a note\n${header}Doodh,Milk,0,word,mcgregor,2026-11\n`)).toEqual([
      { word: 'doodh', means: 'milk', bothWays: false, kind: 'word', source: 'mcgregor', seed: '2026-11' },
    ])
  })
})

describe('connectives', () => {
  it('leaves out Hindi connectives between the words that name a thing, unless nothing else was typed', () => {
    expect(searchTerms('sarson ka tel')).toEqual(['sarson', 'tel'])
    expect(searchTerms('aloo aur pyaz')).toEqual(['aloo', 'pyaz'])
    expect(searchTerms('doodh wala')).toEqual(['doodh'])
    expect(searchTerms('ka')).toEqual(['ka'])
  })
})
