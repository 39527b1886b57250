import { describe, expect, it } from 'vitest'
import { SEARCH_SUGGESTIONS, typingFrames, type TypingFrame } from './search-bar.tsx'

function take(n: number, frames: Generator<TypingFrame>): TypingFrame[] {
  const out: TypingFrame[] = []
  for (let i = 0; i < n; i++) out.push(frames.next().value)
  return out
}

describe('typingFrames (docs/product.md, "Constants": typing speed 50, hold 1000 ms)', () => {
  it('has the eleven suggestions of docs/product.md, "Search bar"', () => {
    expect(SEARCH_SUGGESTIONS).toHaveLength(11)
    expect(SEARCH_SUGGESTIONS[0]).toBe('Search milk')
    expect(SEARCH_SUGGESTIONS[10]).toBe('Search dal')
  })

  it('starts on the first suggestion, held 1 s, then erases to "Search " and types the next at 50 ms a character', () => {
    const frames = take(10, typingFrames())
    expect(frames[0]).toEqual({ text: 'Search milk', delay: 1000 })
    expect(frames.slice(1, 5).map((f) => f.text)).toEqual(['Search mil', 'Search mi', 'Search m', 'Search '])
    expect(frames.slice(5, 9).map((f) => f.text)).toEqual(['Search b', 'Search br', 'Search bre', 'Search brea'])
    expect(frames.slice(1, 9).every((f) => f.delay === 50)).toBe(true)
    expect(frames[9]).toEqual({ text: 'Search bread', delay: 1000 })
  })

  it('cycles forever: after "Search dal" comes "Search milk" again', () => {
    const held = [] as string[]
    const frames = typingFrames()
    while (held.length < 13) {
      const frame = frames.next().value
      if (frame.delay === 1000) held.push(frame.text)
    }
    expect(held.slice(0, 11)).toEqual([...SEARCH_SUGGESTIONS])
    expect(held[11]).toBe('Search milk')
    expect(held[12]).toBe('Search bread')
  })

  it('with reduced motion shows whole suggestions only', () => {
    const frames = take(3, typingFrames(SEARCH_SUGGESTIONS, { reducedMotion: true }))
    expect(frames.map((f) => f.text)).toEqual(['Search milk', 'Search bread', 'Search sugar'])
  })
})
