import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { OrderDelivery } from './order-view.tsx'

/** An order of the Indiranagar store promised for 21:47 IST (16:17 UTC), 9 minutes after placement. */
const order = {
  status: 'placed' as const,
  store: { _id: 'storeBlrIndiranagar', name: 'Indiranagar', area: 'Indiranagar' },
  promisedMinutes: 9,
  promisedAt: '2026-11-26T16:17:00.000Z',
  deliveredAt: null,
  late: false,
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('OrderDelivery (docs/stores.md, "Shopper pages")', () => {
  it('names the store and the promised time; the server renders no countdown', () => {
    const html = renderToStaticMarkup(<OrderDelivery order={order} />)
    expect(text(html)).toContain('From Indiranagar store')
    expect(text(html)).toContain('Arriving by 21:47 (9 minutes)')
    expect(html).not.toContain('data-testid="countdown"')
  })

  it('says on time or late once delivered, and the admin sees a "Late" badge', () => {
    const onTime = { ...order, status: 'delivered' as const, deliveredAt: '2026-11-26T16:15:00.000Z' }
    expect(text(renderToStaticMarkup(<OrderDelivery order={onTime} lateBadge />))).toContain('Delivered on time')
    const late = { ...onTime, deliveredAt: '2026-11-26T16:20:00.000Z', late: true }
    const html = text(renderToStaticMarkup(<OrderDelivery order={late} lateBadge />))
    expect(html).toContain('Delivered late (promised by 21:47, delivered 21:50)')
    expect(html).toContain('Late')
    expect(html).not.toContain('Arriving by')
    expect(text(renderToStaticMarkup(<OrderDelivery order={late} />))).not.toMatch(/Late$/)
  })

  it('promises nothing for a cancelled order or one placed before stores', () => {
    expect(text(renderToStaticMarkup(<OrderDelivery order={{ ...order, status: 'cancelled' }} />))).not.toContain('Arriving')
    expect(text(renderToStaticMarkup(<OrderDelivery order={{ ...order, promisedAt: null, promisedMinutes: null }} />))).not.toContain(
      'Arriving',
    )
  })
})
