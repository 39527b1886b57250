/** api/lib/gate.ts: at most N at once, a bounded line served in order, 503 past it. */
import { describe, expect, it } from 'vitest'
import { createGate } from './gate.ts'
import { HttpError } from './errors.ts'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('createGate', () => {
  it('runs at most `concurrency` tasks at once, the rest in order, and refuses past the line', async () => {
    const gate = createGate(2, 2)
    const started: number[] = []
    const blockers = [deferred(), deferred(), deferred(), deferred()]
    const tasks = blockers.map((b, i) => gate.run(async () => (started.push(i), await b.promise, i)))
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    expect(gate.waiting).toBe(2)
    const refused = await gate.run(async () => 9).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(HttpError)
    expect((refused as HttpError).status).toBe(503)
    blockers[0].resolve()
    await tasks[0]
    await new Promise((r) => setTimeout(r, 0))
    expect(started).toEqual([0, 1, 2])
    for (const b of blockers) b.resolve()
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3])
    expect(gate.active).toBe(0)
  })

  it('frees its place when a task fails', async () => {
    const gate = createGate(1, 0)
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await gate.run(async () => 'next')).toBe('next')
  })
})
