/**
 * Debouncing for type-ahead inputs (docs/product.md, "Constants": search debounce 300 ms).
 * Browser-only effects; on the server the hooks render the initial value and schedule nothing.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react'

/** The search page's debounce delay in milliseconds (docs/product.md, "Constants"). */
export const SEARCH_DEBOUNCE_MS = 300

/** A debounced function plus `cancel` (drop the pending call) and `flush` (run it now). */
export interface DebouncedCallback<Args extends unknown[]> {
  (...args: Args): void
  cancel(): void
  flush(): void
}

/**
 * A stable function that calls `callback` with the arguments of its latest call once `delayMs`
 * milliseconds have passed without another call (trailing edge). Always the latest `callback` runs,
 * so it may close over fresh state. A pending call is dropped when the component unmounts.
 */
export function useDebouncedCallback<Args extends unknown[]>(
  callback: (...args: Args) => void,
  delayMs: number = SEARCH_DEBOUNCE_MS,
): DebouncedCallback<Args> {
  const callbackRef = useRef(callback)
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null)
  const argsRef = useRef<Args | null>(null)

  useEffect(() => {
    callbackRef.current = callback
  })
  useEffect(
    () => () => {
      if (timerRef.current) clearTimeout(timerRef.current)
    },
    [],
  )

  const cancel = useCallback(() => {
    if (timerRef.current) clearTimeout(timerRef.current)
    timerRef.current = null
    argsRef.current = null
  }, [])

  const flush = useCallback(() => {
    const args = argsRef.current
    cancel()
    if (args) callbackRef.current(...args)
  }, [cancel])

  const debounced = useCallback(
    (...args: Args) => {
      if (timerRef.current) clearTimeout(timerRef.current)
      argsRef.current = args
      timerRef.current = setTimeout(flush, delayMs)
    },
    [delayMs, flush],
  )

  // Stable while the delay is unchanged, so consumers can list it in effect dependencies.
  return useMemo(() => Object.assign((...args: Args) => debounced(...args), { cancel, flush }), [debounced, cancel, flush])
}
