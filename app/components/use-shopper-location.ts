/**
 * The shopper's location as every page has it: the root loader's `location` (app/lib/location.ts
 * `ShopperLocation`; docs/stores.md, "Shopper pages"). Undefined when the root loader has none (an
 * error page rendered without it): callers then promise no delivery time and name no store.
 */
import { useRouteLoaderData } from 'react-router'
import { deliveryPromise, type DeliveryPromise } from '../lib/delivery.ts'
import type { ShopperLocation } from '../lib/location.ts'

/** The root loader's `location`, or undefined when it is not there. */
export function useShopperLocation(): ShopperLocation | undefined {
  const root = useRouteLoaderData('root') as { location?: ShopperLocation } | undefined
  return root?.location ?? undefined
}

/** The page's one delivery promise (app/lib/delivery.ts `deliveryPromise`) from the root loader's location. */
export function useDeliveryPromise(): DeliveryPromise {
  return deliveryPromise(useShopperLocation())
}
