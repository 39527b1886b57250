/**
 * Live tracking on the shopper's order page while the order is out for delivery (docs/delivery.md,
 * "Live tracking"; docs/decisions/0074-live-tracking.md):
 *
 * - the facts in text, always (JavaScript or not): the rider's first name, the distance, "Arriving
 *   in about N min" and "Last position at HH:MM" (India Standard Time);
 * - a picture of the store, the rider and the address: with a tile server configured (`mapTiles`,
 *   MAP_TILE_URL) and JavaScript, a Leaflet map, loaded lazily here only (so no other page's bundle
 *   carries it), tiles credited with MAP_TILE_ATTRIBUTION; otherwise (the default, and without
 *   JavaScript) a plain SVG diagram of the three points drawn to scale, rendered on the server;
 * - with JavaScript, each `position` event of the order's live stream (the connection the page's
 *   status events already use: remix-utils shares one EventSource per URL) moves the rider and
 *   recomputes the distance and estimate in place (contract/tracking.ts `withPosition`).
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { useEventSource } from 'remix-utils/sse/react'
import {
  arrivalWords,
  distanceWords,
  PositionEventSchema,
  withPosition,
  type Point,
  type PositionEvent,
  type TrackingView,
} from '../../contract/tracking.ts'
import { projectDiagram } from '../lib/tracking-diagram.ts'

/** The tile server the page may use (app/.server/env.ts `mapTiles`), or null for the diagram. */
export type MapTiles = { url: string; attribution: string } | null

const TIME_IST = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Kolkata' })

/** "HH:MM" in India Standard Time of an ISO time. */
export function istTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : TIME_IST.format(date)
}

/** A `position` event's data, or null when there is none or it is unreadable. */
function parsePositionEvent(data: string | null): PositionEvent | null {
  if (!data) return null
  try {
    const parsed = PositionEventSchema.safeParse(JSON.parse(data))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The three points' colours: shared by the diagram, the map and the legend. */
const COLOURS = { store: '#0f766e', rider: '#2563eb', address: '#dc2626' }

/**
 * The order page's live tracking box.
 * @param view the API's view as the loader read it (a revalidation replaces it)
 * @param eventsUrl the order's live stream (`/dashboard/myorder/:id/events`)
 */
export function LiveTracking({ view: loaded, eventsUrl, mapTiles }: { view: TrackingView; eventsUrl: string; mapTiles: MapTiles }) {
  const event = useEventSource(eventsUrl, { event: 'position' })
  // The stream's newest report moves the rider when it is newer than the one loaded (each event
  // carries the whole position, so the latest is all that counts; a revalidation brings a new `loaded`).
  const view = useMemo(() => {
    const next = parsePositionEvent(event)
    if (!next || (loaded.position && loaded.position.recordedAt >= next.recordedAt)) return loaded
    return withPosition(loaded, next)
  }, [loaded, event])

  const name = view.riderFirstName || 'Your delivery partner'
  return (
    <section
      aria-label="Live tracking"
      data-testid="live-tracking"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold text-slate-900" data-field="rider">
          {name} is on the way
        </h2>
        <p className="text-lg font-semibold text-emerald-700" data-testid="eta" aria-live="polite">
          {arrivalWords(view.etaMinutes)}
        </p>
      </div>
      <p className="text-sm text-slate-700">
        <span data-testid="distance">{distanceWords(view.distanceM)} away</span>
        {' · '}
        <span data-testid="last-position">
          {view.position ? `Last position at ${istTime(view.position.recordedAt)}` : 'Waiting for the first position from the rider'}
        </span>
      </p>
      {mapTiles ? <TrackingMap view={view} tiles={mapTiles} /> : <TrackingDiagram view={view} />}
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
        <li>
          <span aria-hidden="true" style={{ color: COLOURS.store }}>
            ■
          </span>{' '}
          Store: {view.store.name}
        </li>
        <li>
          <span aria-hidden="true" style={{ color: COLOURS.rider }}>
            ●
          </span>{' '}
          {name}
        </li>
        <li>
          <span aria-hidden="true" style={{ color: COLOURS.address }}>
            ▲
          </span>{' '}
          Your address
        </li>
      </ul>
    </section>
  )
}

const BOX = { width: 320, height: 200, margin: 24 }

/** The SVG diagram of the store, the rider (when it has reported) and the address, to scale with a scale bar. */
export function TrackingDiagram({ view }: { view: TrackingView }) {
  const points: Point[] = [view.store, view.address, ...(view.position ? [view.position] : [])]
  const { points: drawn, bar } = projectDiagram(points, BOX)
  const [store, address, rider] = drawn
  const label = `Diagram: the store, ${view.position ? 'the rider, ' : ''}and your address, ${distanceWords(view.distanceM)} apart from the ${view.position ? 'rider' : 'store'}`
  return (
    <svg
      viewBox={`0 0 ${BOX.width} ${BOX.height}`}
      role="img"
      aria-label={label}
      data-testid="tracking-diagram"
      className="h-auto w-full max-w-full rounded-lg bg-slate-50"
    >
      {rider ? (
        <line x1={rider.x} y1={rider.y} x2={address!.x} y2={address!.y} stroke="#94a3b8" strokeDasharray="4 4" strokeWidth={2} />
      ) : (
        <line x1={store!.x} y1={store!.y} x2={address!.x} y2={address!.y} stroke="#94a3b8" strokeDasharray="4 4" strokeWidth={2} />
      )}
      <rect x={store!.x - 7} y={store!.y - 7} width={14} height={14} fill={COLOURS.store} data-point="store" />
      <polygon
        points={`${address!.x},${address!.y - 9} ${address!.x - 8},${address!.y + 6} ${address!.x + 8},${address!.y + 6}`}
        fill={COLOURS.address}
        data-point="address"
      />
      {rider ? (
        <circle
          cx={rider.x}
          cy={rider.y}
          r={8}
          fill={COLOURS.rider}
          stroke="white"
          strokeWidth={2}
          data-point="rider"
          data-testid="rider-dot"
        />
      ) : null}
      <g transform={`translate(${BOX.margin / 2}, ${BOX.height - 8})`}>
        <line x1={0} y1={0} x2={bar.units} y2={0} stroke="#334155" strokeWidth={2} />
        <text x={bar.units + 4} y={4} fontSize={10} fill="#334155">
          {distanceWords(bar.metres)}
        </text>
      </g>
    </svg>
  )
}

/**
 * The Leaflet map (with JavaScript and a tile server): the diagram until Leaflet has loaded (or if
 * it fails to), then the map with three circle markers (no marker images to serve) fitted to them.
 */
function TrackingMap({ view, tiles }: { view: TrackingView; tiles: NonNullable<MapTiles> }) {
  const element = useRef<HTMLDivElement>(null)
  const map = useRef<{ setRider: (p: Point | null) => void; remove: () => void } | null>(null)
  const [leaflet, setLeaflet] = useState<typeof import('leaflet') | null>(null)
  // The map is made once with the points as first shown: later positions move the rider (below).
  const first = useRef(view)
  useEffect(() => {
    let cancelled = false
    void Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')])
      .then(([module]) => {
        if (!cancelled) setLeaflet(() => (module as { default?: typeof import('leaflet') }).default ?? module)
      })
      .catch(() => undefined)
    return () => {
      cancelled = true
    }
  }, [])
  // Once Leaflet is here and its box is shown (a hidden box has no size to fit the points in).
  useEffect(() => {
    const L = leaflet
    if (!L || !element.current) return
    const v = first.current
    const m = L.map(element.current, { zoomControl: true, attributionControl: true })
    // The view first: a layer added to a map without one waits for it, and has no element to name yet.
    const all = [v.store, v.address, ...(v.position ? [v.position] : [])].map((p) => [p.lat, p.lng] as [number, number])
    m.fitBounds(all, { padding: [24, 24] })
    L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(m)
    const dot = (p: Point, colour: string, title: string, point: 'store' | 'rider' | 'address') => {
      const marker = L.circleMarker([p.lat, p.lng], { radius: 8, color: 'white', weight: 2, fillColor: colour, fillOpacity: 1 })
        .bindTooltip(title)
        .addTo(m)
      // A circle marker is a bare SVG path, named by nothing but a hover tooltip: give it the name a
      // screen reader reads (WAI-ARIA 1.2, role "img") and the diagram's `data-point` for the tests.
      const path = marker.getElement()
      path?.setAttribute('role', 'img')
      path?.setAttribute('aria-label', title)
      path?.setAttribute('data-point', point)
      // Chromium reads Leaflet's bare <svg> as one unnamed image whose children are hidden (an image's
      // children are presentational, WAI-ARIA 1.2): a named group exposes the three markers instead.
      const svg = path?.closest('svg')
      svg?.setAttribute('role', 'group')
      svg?.setAttribute('aria-label', 'Map of the store, the rider and your address')
      return marker
    }
    dot(v.store, COLOURS.store, `Store: ${v.store.name}`, 'store')
    dot(v.address, COLOURS.address, 'Your address', 'address')
    let rider = v.position ? dot(v.position, COLOURS.rider, v.riderFirstName || 'Your delivery partner', 'rider') : null
    map.current = {
      setRider(p) {
        if (!p) return
        if (rider) rider.setLatLng([p.lat, p.lng])
        else rider = dot(p, COLOURS.rider, v.riderFirstName || 'Your delivery partner', 'rider')
      },
      remove: () => m.remove(),
    }
    return () => {
      map.current = null
      m.remove()
    }
  }, [leaflet, tiles.url, tiles.attribution])
  useEffect(() => {
    map.current?.setRider(view.position)
  }, [view.position, leaflet])
  return (
    <div>
      {/* `isolate`: Leaflet's panes and controls carry z-index 400–1000, which would otherwise
          paint the map over the sticky header (z-40) and the basket bar as the page scrolls; a
          stacking context of its own keeps them inside the map (CSS Compositing and Blending, `isolation`). */}
      <div ref={element} data-testid="tracking-map" className={leaflet ? 'isolate h-56 w-full rounded-lg' : 'hidden'} />
      {leaflet ? null : <TrackingDiagram view={view} />}
    </div>
  )
}
