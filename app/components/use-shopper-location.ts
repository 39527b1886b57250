/**
 * The shopper's location as every page has it: the root loader's `location` (app/lib/location.ts
 * `ShopperLocation`; docs/stores.md, "Shopper pages"). Undefined when the root loader has none (an
 * error page rendered without it): callers then show what they showed before stores, the default
 * "10 min" badge and no store name.
 */
import { useRouteLoaderData } from 'react-router'
import type { ShopperLocation } from '../lib/location.ts'

/** The root loader's `location`, or undefined when it is not there. */
export function useShopperLocation(): ShopperLocation | undefined {
  const root = useRouteLoaderData('root') as { location?: ShopperLocation } | undefined
  return root?.location ?? undefined
}
