/**
 * The rider's page sharing its position (docs/delivery.md, "Live tracking"), JavaScript only: while
 * the rider holds an order out for delivery (`orderIds` not empty), `navigator.geolocation.
 * watchPosition` (W3C Geolocation API) keeps the newest reading and the page sends it every
 * POSITION_SEND_EVERY_MS (10 s; the first at once) through the BFF's /rider/position (a fetcher's
 * POST, never the API from the browser). With no order out the watch is cleared and nothing is
 * sent. A refused permission shows what to do; without JavaScript nothing renders and nothing is sent.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useFetcher } from 'react-router'
import { POSITION_SEND_EVERY_MS } from '../../contract/tracking.ts'

/** The resource route the reports go to (app/routes/rider/position.ts). */
export const POSITION_ACTION = '/rider/position'

type Sharing = 'starting' | 'sharing' | 'denied' | 'unavailable'

const noSubscription = () => () => {}

/** Shares the position for `orderIds` (the rider's orders out for delivery); renders its state. */
export function PositionSharer({ orderIds }: { orderIds: string[] }) {
  const fetcher = useFetcher<{ ok: boolean; stored?: boolean; message?: string }>()
  // True once hydrated (false on the server and without JavaScript: nothing is shown or sent).
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
  // The state of the watch of `key`'s orders; another key's state counts as starting.
  const [sharing, setSharing] = useState<{ key: string; state: Sharing } | null>(null)
  const submit = useRef(fetcher.submit)
  useEffect(() => {
    submit.current = fetcher.submit
  })
  const key = orderIds.join(',')
  const supported = inBrowser && 'geolocation' in navigator

  useEffect(() => {
    if (!key || !supported) return
    const ids = key.split(',')
    let latest: GeolocationCoordinates | null = null
    const send = () => {
      if (!latest) return
      const form = new FormData()
      for (const id of ids) form.append('orderId', id)
      form.set('lat', String(latest.latitude))
      form.set('lng', String(latest.longitude))
      form.set('accuracyM', String(Math.min(Math.round(latest.accuracy), 10_000)))
      void submit.current(form, { method: 'post', action: POSITION_ACTION })
      setSharing({ key, state: 'sharing' })
    }
    // The first reading is sent at once, and so is the first after an error (a reading that could
    // not be had, a time-out): the rider sees "Sharing" again as soon as the position is back,
    // not at the next tick. The watch goes on after an error (W3C Geolocation API, "watchPosition").
    let sendNext = true
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        latest = position.coords
        if (sendNext) {
          sendNext = false
          send()
        }
      },
      (error) => {
        sendNext = true
        setSharing({ key, state: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable' })
      },
      { enableHighAccuracy: true, maximumAge: POSITION_SEND_EVERY_MS, timeout: 60_000 },
    )
    const timer = setInterval(send, POSITION_SEND_EVERY_MS)
    return () => {
      navigator.geolocation.clearWatch(watch)
      clearInterval(timer)
    }
  }, [key, supported])

  if (!key || !inBrowser) return null
  const state: Sharing | 'unsupported' = !supported ? 'unsupported' : sharing?.key === key ? sharing.state : 'starting'
  const refused = fetcher.data && !fetcher.data.ok ? fetcher.data.message : null
  if (state === 'denied' || state === 'unsupported' || state === 'unavailable') {
    return (
      <p
        role="alert"
        data-testid="position-sharing"
        className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-slate-800"
      >
        {state === 'denied'
          ? 'Location is blocked: allow location for this site in your browser so the customer can follow the delivery.'
          : state === 'unsupported'
            ? 'This browser cannot share your location: the customer sees the estimate from the store.'
            : 'Your location cannot be found right now: move to open sky; the page keeps trying.'}
      </p>
    )
  }
  return (
    <p
      role="status"
      data-testid="position-sharing"
      className="mt-4 rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-sm text-slate-800"
    >
      {state === 'starting' ? 'Finding your location…' : 'Sharing your location with the customer while the order is out.'}
      {refused ? <span className="block text-red-700">{refused}</span> : null}
    </p>
  )
}
