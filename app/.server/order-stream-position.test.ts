/**
 * Live tracking on the order's stream (app/.server/order-stream.ts; docs/delivery.md, "Live
 * tracking"): a position published on the API's order event hub reaches the shopper's open stream
 * as `event: position` (without an id, and without touching the status versions), once per report;
 * with the API apart the poll asks for the newest position while the order is out for delivery.
 */
import { describe, expect, it } from 'vitest'
import { orderEventStream, type OrderEventHub, type OrderStatusEvent } from './order-stream.ts'

/** A hub as the API's (api/lib/order-events.ts): listeners per order, each publish delivered to that order's. */
function fakeHub(): OrderEventHub & { publish(event: OrderStatusEvent): void } {
  const listeners = new Map<string, Set<(event: OrderStatusEvent) => void>>()
  return {
    subscribe(orderId, listener) {
      const set = listeners.get(orderId) ?? new Set()
      listeners.set(orderId, set.add(listener))
      return () => set.delete(listener)
    },
    publish(event) {
      for (const listener of listeners.get(event.orderId) ?? []) listener(event)
    },
  }
}

/** Reads the stream for `ms`, then aborts it (as a closed tab does) and reads it to its end. */
async function readFor(res: Response, ms: number, abort?: AbortController): Promise<string> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  setTimeout(() => abort?.abort(), ms)
  for (;;) {
    const chunk = await reader.read()
    if (chunk.done) return text
    text += decoder.decode(chunk.value)
  }
}

const POSITION = { lat: 12.9719, lng: 77.6412, accuracyM: 9, recordedAt: '2026-11-29T10:00:00.000Z' }

describe('position events on the order stream', () => {
  it('a position published on the hub goes to the order’s stream as event: position, once per report', async () => {
    const hub = fakeHub()
    const abort = new AbortController()
    const res = orderEventStream({
      signal: abort.signal,
      userId: 'tracking-shopper',
      order: { _id: 'o1', status: 'out_for_delivery', version: 4 },
      hub,
      poll: async () => null,
    })
    const reading = readFor(res, 400, abort)
    hub.publish({ orderId: 'o1', status: 'out_for_delivery', version: 4, position: POSITION })
    hub.publish({ orderId: 'o1', status: 'out_for_delivery', version: 4, position: POSITION })
    hub.publish({ orderId: 'o2', status: 'out_for_delivery', version: 1, position: { ...POSITION, lat: 1 } })
    const text = await reading
    expect(text).toContain('id: 4\nevent: status\n')
    expect(text.match(/event: position/g)).toHaveLength(1)
    expect(text).toContain(`event: position\ndata: ${JSON.stringify({ orderId: 'o1', ...POSITION })}\n\n`)
  })

  it('with the API apart, the poll sends the newest position while out for delivery, once per report', async () => {
    let polls = 0
    const res = orderEventStream({
      signal: new AbortController().signal,
      userId: 'tracking-poller',
      order: { _id: 'o1', status: 'out_for_delivery', version: 4 },
      hub: null,
      poll: async () => (++polls > 4 ? null : { orderId: 'o1', status: 'out_for_delivery', version: 4 }),
      pollPosition: async () => (polls < 3 ? POSITION : { ...POSITION, recordedAt: '2026-11-29T10:00:10.000Z' }),
      timing: { pollMs: 20 },
    })
    const text = await readFor(res, 1000)
    expect(text.match(/event: position/g)).toHaveLength(2)
    expect(text).toContain('"recordedAt":"2026-11-29T10:00:10.000Z"')
  })
})
