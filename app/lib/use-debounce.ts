/**
 * Debouncing for type-ahead inputs (docs/product.md, "Constants": search debounce 300 ms).
 * Browser-only effects; on the server the hooks render the initial value and schedule nothing.
 */
import { useEffect, useState } from 'react'

/** The search page's debounce delay in milliseconds (docs/product.md, "Constants"). */
export const SEARCH_DEBOUNCE_MS = 300

/** A debounced function plus `cancel` (drop the pending call) and `flush` (run it now). */
export interface DebouncedCallback<Args extends unknown[]> {
  (...args: Args): void
  cancel(): void
  flush(): void
}

/**
 * A debounced function owning its own timer, outside React: `setCallback` swaps the function it
 * will call, so the pending call always runs the latest one.
 */
function createDebouncer<Args extends unknown[]>(
  callback: (...args: Args) => void,
  delayMs: number,
): DebouncedCallback<Args> & { setCallback(next: (...args: Args) => void, nextDelayMs: number): void } {
  let latest = callback
  let delay = delayMs
  let timer: ReturnType<typeof setTimeout> | null = null
  let pending: Args | null = null
  const cancel = () => {
    if (timer) clearTimeout(timer)
    timer = null
    pending = null
  }
  const flush = () => {
    const args = pending
    cancel()
    if (args) latest(...args)
  }
  const call = (...args: Args) => {
    if (timer) clearTimeout(timer)
    pending = args
    timer = setTimeout(flush, delay)
  }
  return Object.assign(call, {
    cancel,
    flush,
    setCallback(next: (...args: Args) => void, nextDelayMs: number) {
      latest = next
      delay = nextDelayMs
    },
  })
}

/**
 * A stable function that calls `callback` with the arguments of its latest call once `delayMs`
 * milliseconds have passed without another call (trailing edge). Always the latest `callback` (and
 * delay) is used, so it may close over fresh state; the function itself never changes, so consumers
 * can list it in effect dependencies. A pending call is dropped when the component unmounts.
 */
export function useDebouncedCallback<Args extends unknown[]>(
  callback: (...args: Args) => void,
  delayMs: number = SEARCH_DEBOUNCE_MS,
): DebouncedCallback<Args> {
  const [debouncer] = useState(() => createDebouncer(callback, delayMs))
  useEffect(() => debouncer.setCallback(callback, delayMs))
  useEffect(() => () => debouncer.cancel(), [debouncer])
  return debouncer
}
