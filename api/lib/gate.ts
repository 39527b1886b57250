/**
 * A gate that lets at most `concurrency` tasks run at once and keeps at most `maxWaiting` more in
 * line (first come, first served); past that a task is refused at once with 503 and `Retry-After`,
 * so a burst of expensive requests (searches the cache cannot answer) waits its turn instead of
 * piling onto the database the whole store shares.
 */
import { HttpError } from './errors.ts'

/** A concurrency gate; `run` resolves with the task's result or throws 503 when the line is full. */
export interface Gate {
  run<T>(task: () => Promise<T>): Promise<T>
  readonly active: number
  readonly waiting: number
}

/** The 503 of a full line: the client may try again in a second. */
export const gateBusy = () => new HttpError(503, 'The store is busy, try again in a moment', { retryAfterSeconds: 1 })

/** Creates a gate for `concurrency` tasks at once (≥ 1) and `maxWaiting` in line (≥ 0). */
export function createGate(concurrency: number, maxWaiting: number): Gate {
  let active = 0
  const line: Array<() => void> = []
  const release = () => {
    active--
    const next = line.shift()
    if (next) {
      active++
      next()
    }
  }
  return {
    get active() {
      return active
    },
    get waiting() {
      return line.length
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= concurrency) {
        if (line.length >= maxWaiting) throw gateBusy()
        await new Promise<void>((resolve) => line.push(resolve))
      } else {
        active++
      }
      try {
        return await task()
      } finally {
        release()
      }
    },
  }
}
