import { describe, expect, it } from 'vitest'
import { addChip, chipsFor, removeChip } from './chips-select.tsx'

describe('chips of the category picker (docs/product.md, "States and transitions": picking appends, the cross removes)', () => {
  it('appends a pick once, in pick order, and ignores the empty placeholder option', () => {
    expect(addChip([], 'a')).toEqual(['a'])
    expect(addChip(['a'], 'b')).toEqual(['a', 'b'])
    expect(addChip(['a', 'b'], 'a')).toEqual(['a', 'b'])
    expect(addChip(['a'], '')).toEqual(['a'])
  })
  it('removes only the chip crossed out, without changing the input list', () => {
    const values = ['a', 'b', 'c']
    expect(removeChip(values, 'b')).toEqual(['a', 'c'])
    expect(removeChip(values, 'z')).toEqual(['a', 'b', 'c'])
    expect(values).toEqual(['a', 'b', 'c'])
  })
  it('labels chips from the options, an unknown id as itself', () => {
    expect(
      chipsFor(
        ['2', 'x'],
        [
          { value: '1', label: 'Dairy' },
          { value: '2', label: 'Snacks' },
        ],
      ),
    ).toEqual([
      { value: '2', label: 'Snacks' },
      { value: 'x', label: 'x' },
    ])
  })
})
