/**
 * The pure parts of the search's modifiers (./modifiers.ts; docs/search.md, "Modifiers"): which
 * typed words are attributes or colours, and whether a name carries one.
 */
import { describe, expect, it } from 'vitest'
import { attributeAt, carries, colourOf } from './modifiers.ts'

describe('modifiers', () => {
  it('reads an attribute as one phrase, the longest first, with the catalogue spellings', () => {
    const sugarFree = attributeAt(['sugar', 'free', 'biscuits'], 0)!
    expect(sugarFree.typed).toEqual(['sugar', 'free'])
    expect(sugarFree.phrases).toContainEqual(['no', 'added', 'sugar'])
    expect(attributeAt(['organic', 'atta'], 0)!.typed).toEqual(['organic'])
    expect(attributeAt(['whole', 'wheat', 'bread'], 0)!.typed).toEqual(['whole', 'wheat'])
    // "sugar" alone is a product, not an attribute.
    expect(attributeAt(['sugar'], 0)).toBeNull()
    expect(attributeAt(['biscuits'], 0)).toBeNull()
  })

  it('maps Hindi colours to the catalogue colour words', () => {
    expect(colourOf('kala')).toEqual(['black', 'brown'])
    expect(colourOf('safed')).toEqual(['white'])
    expect(colourOf('lal')).toEqual(['red'])
    expect(colourOf('hari')).toEqual(['green'])
    // "kali" is left to the phrase "kali mirch" (black pepper); "chana" is no colour.
    expect(colourOf('kali')).toBeNull()
    expect(colourOf('chana')).toBeNull()
  })

  it('tells whether a name carries a phrase: in order, or in any order, up to plurals', () => {
    expect(carries('Sugar-Free Butter Cookies', ['sugar', 'free'])).toBe(true)
    expect(carries('Free Sugar Cookies', ['sugar', 'free'])).toBe(false)
    expect(carries('Chana - Brown/Kadale Kaalu', ['brown', 'chana'], true)).toBe(true)
    expect(carries('Chana Dal', ['brown', 'chana'], true)).toBe(false)
    expect(carries('Brown Eggs', ['brown', 'egg'])).toBe(true)
  })
})
