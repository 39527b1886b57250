/**
 * /product/{slug}: the product page (docs/product.md, "Product page": a real product page instead of
 * the original app's placeholder). Images (the first large, thumbnails as `?image=N` links that work
 * without JavaScript), name, unit, selling price, MRP struck through and discount %, the delivery badge
 * (docs/product.md, "Constants"; the store's minutes, and "Only N left" when 1-5 are left: docs/stores.md,
 * "Shopper pages"), description and `more_details` (docs/product.md, "Entities") as a
 * definition list, and
 * breadcrumbs to the product's category and sub category listing.
 *
 * Slugs: the id is the last dash-separated piece (docs/product.md, "Slugs"; app/lib/slug.ts). An unknown id
 * answers 404; a slug whose name part is stale redirects (301) to `/product/{slugify(name)}-{id}`.
 * "Other pack sizes" (docs/product.md, "Pack sizes"): the other sizes of its pack group, each a link
 * to its page with its price, or "Out of stock".
 * Below: "Frequently bought together" (association rules of delivered orders, docs/recommendations.md),
 * "Similar products" (the shelf's nearest in price, See All to the sub category's listing) and
 * "More from <brand>" (See All to a search for the brand), each a home-style row.
 * Upstream calls per render: three at once (get-product-details answers category and sub category
 * expanded; similar; recommend/together).
 */
import { data, Link, redirect, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/$product'
import { AddToCart } from '../../components/add-to-cart.tsx'
import { productAnchor, revalidateExceptAfterCartWrite } from '../../lib/cart.ts'
import { productDetails, similarProducts, type CatalogRef } from '../../.server/api/catalog.ts'
import { frequentlyBoughtTogether } from '../../.server/api/recommend.ts'
import { ProductRow } from '../../components/product-row.tsx'
import { toCardData } from '../../lib/catalog-cards.ts'
import { getSession } from '../../.server/context.ts'
import { clientIp } from '../../.server/request.ts'
import { productDetailRows } from '../../lib/product-details.ts'
import { isAdminRole } from '../../lib/roles.ts'
import { discountLabel, formatRupees, isDiscounted, productPrice } from '../../lib/money.ts'
import { categoryPath, idFromSlug, isCanonicalSlug, listingPath, productPath } from '../../lib/slug.ts'
import { DeliveryBadge, LowStockNote, NotDeliverableAdd } from '../../components/product-card.tsx'
import { useDeliveryPromise } from '../../components/use-shopper-location.ts'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { isIllustrationUrl } from '../../../contract/images.ts'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { breadcrumbJsonLd, originFromMatches, pageMeta, productJsonLd, type Crumb } from '../../lib/seo.ts'
import { PERSONAL_SLOTS_HANDLE } from '../../lib/personal-slots.ts'
import { apiOf } from '../../.server/api-context.ts'

/** The page differs between visitors only in personal slots (app/lib/personal-slots.ts). */
export const handle = PERSONAL_SLOTS_HANDLE

const notFound = () => data(null, { status: 404, statusText: 'Not Found' })

/** A reference with a readable name (the API may also send bare ids, which cannot be shown). */
function named(ref: CatalogRef | string | undefined): { _id: string; name: string } | null {
  return ref && typeof ref === 'object' && ref.name ? { _id: ref._id, name: ref.name } : null
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const productId = idFromSlug(params.product)
  if (!productId) throw notFound()
  const [product, similar, together] = await Promise.all([
    productDetails(api, productId, { clientIp: clientIp(request) }),
    similarProducts(api, productId, { clientIp: clientIp(request) }),
    frequentlyBoughtTogether(api, productId, { clientIp: clientIp(request) }),
  ])
  if (!product) throw notFound()
  const url = new URL(request.url)
  if (!isCanonicalSlug(params.product, product)) throw redirect(`${productPath(product)}${url.search}`, 301)

  const category = named(product.category?.[0])
  const subCategory = named(product.subCategory?.[0])
  return {
    product: {
      _id: product._id,
      name: product.name,
      images: (product.image ?? []).filter(Boolean),
      unit: product.unit ?? '',
      stock: Number(product.stock) || 0,
      // `mrp`, `sellingPrice` and the percentage from the two (app/lib/money.ts `productPrice`).
      ...productPrice(product),
      description: product.description ?? '',
      brand: typeof product.more_details?.brand === 'string' ? product.more_details.brand.trim() : '',
      // The SKU is internal: admins only (app/lib/product-details.ts).
      details: productDetailRows(product.more_details, isAdminRole(getSession(context).user?.role)),
      // Its other pack sizes, smallest first (the API's order), each with the link to its page.
      otherSizes: (toCardData(product).packSizes ?? [])
        .filter((size) => size._id !== product._id)
        .map((size) => ({ ...size, href: productPath({ _id: size._id, name: product.name }) })),
    },
    breadcrumbs: {
      category: category ? { name: category.name, href: categoryPath(category) } : null,
      subCategory: category && subCategory ? { name: subCategory.name, href: listingPath(category, subCategory) } : null,
    },
    canonical: productPath(product),
    similar: { sameShelf: similar.sameShelf.map(toCardData), sameBrand: similar.sameBrand.map(toCardData) },
    // Shared by every shopper of the store (docs/recommendations.md, "Frequently bought together and You might have missed").
    together: together.map(toCardData),
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Product not found | ${SHOP_NAME}` }]
  const { product, canonical, breadcrumbs } = loaderData
  const origin = originFromMatches(matches)
  const description =
    product.description.trim() ||
    `${product.name}${product.unit ? `, ${product.unit}` : ''} for ${formatRupees(product.sellingPrice)}, delivered in minutes.`
  const crumbs: Crumb[] = [{ name: 'Home', path: '/' }]
  if (breadcrumbs.category) crumbs.push({ name: breadcrumbs.category.name, path: breadcrumbs.category.href })
  if (breadcrumbs.subCategory) crumbs.push({ name: breadcrumbs.subCategory.name, path: breadcrumbs.subCategory.href })
  crumbs.push({ name: product.name, path: canonical })
  return [
    ...pageMeta({
      origin,
      path: canonical,
      title: `${product.brand && !product.name.toLowerCase().startsWith(product.brand.toLowerCase()) ? `${product.brand} ` : ''}${product.name}${product.unit ? ` (${product.unit})` : ''} | ${SHOP_NAME}`,
      description,
      image: product.images[0],
      type: 'product',
      siteName: SHOP_NAME,
    }),
    productJsonLd(origin, {
      name: product.name,
      path: canonical,
      images: product.images,
      description: product.description,
      brand: product.brand,
      sellingPrice: product.sellingPrice,
      stock: product.stock,
    }),
    breadcrumbJsonLd(origin, crumbs),
  ]
}

// Catalogue pages are personal (the header shows the shopper), so no shared cache may keep them.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, max-age=0' })

/**
 * Picking another image (`?image=N`) changes nothing the loader reads: no new request for it. An
 * ADD or a stepper re-reads only the root loader's cart summary (app/lib/cart.ts).
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  const { currentUrl, nextUrl, formMethod, defaultShouldRevalidate } = args
  if (formMethod) return revalidateExceptAfterCartWrite(args)
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search)
    params.delete('image')
    return params.toString()
  }
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, breadcrumbs, similar, together } = loaderData
  const [searchParams] = useSearchParams()
  // `?image=N` is 1-based, as shoppers count; anything else shows the first image.
  const requested = Number.parseInt(searchParams.get('image') ?? '1', 10)
  const current = Number.isFinite(requested) && requested >= 1 && requested <= product.images.length ? requested - 1 : 0
  const label = discountLabel(product.discount)
  const promise = useDeliveryPromise()

  return (
    <div className="mx-auto max-w-7xl px-3 py-4 sm:px-4 md:py-6">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm md:mb-3">
        {/* One line on a phone (it scrolls sideways inside itself), so the buy box stays in the first screen. */}
        <ol className="flex items-center gap-x-1.5 gap-y-1 overflow-x-auto whitespace-nowrap text-slate-500 [scrollbar-width:none] md:flex-wrap md:whitespace-normal">
          <li className="shrink-0">
            <Link to="/" className="hover:text-accent hover:underline">
              Home
            </Link>
          </li>
          {breadcrumbs.category ? (
            <li className="flex shrink-0 items-center gap-1.5">
              <span aria-hidden="true">/</span>
              <Link to={breadcrumbs.category.href} className="hover:text-accent hover:underline">
                {breadcrumbs.category.name}
              </Link>
            </li>
          ) : null}
          {breadcrumbs.subCategory ? (
            <li className="flex shrink-0 items-center gap-1.5">
              <span aria-hidden="true">/</span>
              <Link to={breadcrumbs.subCategory.href} className="hover:text-accent hover:underline">
                {breadcrumbs.subCategory.name}
              </Link>
            </li>
          ) : null}
          <li className="flex min-w-0 items-center gap-1.5">
            <span aria-hidden="true">/</span>
            <span aria-current="page" className="truncate text-slate-700 md:line-clamp-1 md:whitespace-normal">
              {product.name}
            </span>
          </li>
        </ol>
      </nav>

      {/* The first screen of a phone (360 × 640) holds the picture, name, pack size, price, MRP,
          discount and ADD (docs/product.md, "Product page"): below md the picture is a 9rem column
          beside the name and the buy box spans the width under both; thumbnails, the illustration
          note and the details follow. From md up: the picture column and the details column. The two
          wrappers are `display: contents` below md, so their children are placed in one grid (CSS
          Display Level 3, "contents"), in this order: picture, name, buy box, thumbnails, details. */}
      <div className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)] gap-x-3 gap-y-4 md:grid-cols-[minmax(0,440px)_minmax(0,1fr)] md:gap-x-10 lg:grid-cols-[minmax(0,480px)_minmax(0,1fr)]">
        <div data-testid="product-gallery" className="contents md:flex md:flex-col md:gap-3">
          <div className="relative order-1 self-start overflow-hidden md:self-stretch rounded-2xl border border-slate-200 bg-white md:order-none">
            <ResponsiveImage
              src={product.images[current] ?? ''}
              alt={product.name}
              width={512}
              height={512}
              sizes="(min-width: 1024px) 480px, (min-width: 768px) 440px, 9rem"
              loading="eager"
              priority
              className="aspect-square h-auto w-full object-contain p-2 md:p-8"
            />
            {label ? (
              <span className="absolute left-1.5 top-1.5 rounded-md bg-blue-600 px-1.5 py-0.5 text-xs font-bold text-white md:left-3 md:top-3 md:px-2 md:py-1">
                {label}
              </span>
            ) : null}
          </div>
          {isIllustrationUrl(product.images[current] ?? '') || product.images.length > 1 ? (
            <div className="order-4 col-span-2 flex flex-col gap-3 md:order-none">
              {isIllustrationUrl(product.images[current] ?? '') ? (
                // A drawn picture (docs/product.md, "Pictures"): said so, so nobody takes it for the real pack.
                <p className="text-xs text-slate-500">Illustration drawn from the product’s details, not a photo of the pack.</p>
              ) : null}
              {product.images.length > 1 ? (
                <ul aria-label="Product images" className="flex gap-2 overflow-x-auto pb-1">
                  {product.images.map((image, i) => (
                    <li key={`${image}-${i}`} className="shrink-0">
                      <Link
                        to={`?image=${i + 1}`}
                        replace
                        preventScrollReset
                        aria-label={`Show image ${i + 1} of ${product.images.length}`}
                        aria-current={i === current ? 'true' : undefined}
                        className={`block h-16 w-16 overflow-hidden rounded-lg border-2 bg-white sm:h-20 sm:w-20 ${
                          i === current ? 'border-accent' : 'border-slate-200 hover:border-slate-400'
                        }`}
                      >
                        <ResponsiveImage
                          src={image}
                          alt=""
                          width={128}
                          height={128}
                          sizes="80px"
                          className="h-full w-full object-contain p-1"
                        />
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </div>

        <div className="contents md:flex md:flex-col md:gap-4">
          <div className="order-2 flex flex-col gap-1.5 self-center md:order-none md:gap-2 md:self-auto">
            <DeliveryBadge promise={promise} className="text-xs" />
            {product.brand ? <p className="text-sm font-semibold text-slate-600">{product.brand}</p> : null}
            <h1 id="product-name" className="text-lg font-bold leading-snug break-words text-slate-900 md:text-3xl md:leading-tight">
              {product.name}
            </h1>
            {product.unit ? (
              <p data-testid="product-unit" className="text-sm text-slate-600 md:text-base">
                {product.unit}
              </p>
            ) : null}
          </div>

          <div
            data-testid="product-buy"
            className="order-3 col-span-2 rounded-2xl border border-slate-200 bg-white p-3 md:order-none md:p-4"
          >
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span data-testid="product-price" className="text-2xl font-bold text-slate-900 md:text-3xl">
                {formatRupees(product.sellingPrice)}
              </span>
              {isDiscounted(product) ? (
                <span data-testid="product-mrp" className="text-base text-slate-500">
                  MRP <s>{formatRupees(product.mrp)}</s>
                </span>
              ) : null}
              {label ? (
                <span data-testid="product-discount" className="rounded-md bg-blue-600 px-2 py-0.5 text-sm font-bold text-white">
                  {label}
                </span>
              ) : null}
            </p>
            <p className="mt-1 text-xs text-slate-500">(Inclusive of all taxes)</p>
            <div id={productAnchor(product._id)} className="mt-3 scroll-mt-36 md:scroll-mt-28">
              {product.stock <= 0 ? (
                <p className="inline-block rounded-md bg-red-50 px-2 py-1 text-sm font-semibold text-red-700">Out of stock</p>
              ) : (
                <>
                  {promise.kind === 'not-served' ? (
                    <NotDeliverableAdd name={product.brand ? `${product.brand} ${product.name}` : product.name} size="lg" />
                  ) : (
                    <AddToCart
                      productId={product._id}
                      name={product.brand ? `${product.brand} ${product.name}` : product.name}
                      stock={product.stock}
                      size="lg"
                    />
                  )}
                  <LowStockNote stock={product.stock} className="mt-2 text-sm font-semibold text-amber-700" />
                </>
              )}
            </div>
          </div>

          <div className="order-5 col-span-2 flex flex-col gap-4 md:order-none">
            {product.otherSizes.length > 0 ? (
              <section aria-labelledby="other-pack-sizes" data-testid="other-pack-sizes">
                <h2 id="other-pack-sizes" className="mb-2 text-lg font-semibold text-slate-900">
                  Other pack sizes
                </h2>
                <ul className="flex flex-wrap gap-2">
                  {product.otherSizes.map((size) => (
                    <li key={size._id}>
                      <Link
                        to={size.href}
                        data-pack-size=""
                        className="flex min-h-11 flex-col justify-center rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:border-accent focus-visible:outline-2 focus-visible:outline-accent"
                      >
                        <span className="text-sm font-semibold text-slate-800">{size.unit}</span>
                        <span className="text-xs text-slate-600">{size.stock <= 0 ? 'Out of stock' : formatRupees(size.sellingPrice)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}

            {product.description ? (
              <section aria-labelledby="product-description">
                <h2 id="product-description" className="mb-1 text-lg font-semibold text-slate-900">
                  Description
                </h2>
                <p className="whitespace-pre-line leading-relaxed text-slate-700">{product.description}</p>
              </section>
            ) : null}

            <section aria-labelledby="product-details">
              <h2 id="product-details" className="mb-2 text-lg font-semibold text-slate-900">
                Product details
              </h2>
              <dl
                data-card="product details"
                className="grid grid-cols-[minmax(6rem,auto)_minmax(0,1fr)] overflow-hidden rounded-xl border border-slate-200 bg-white text-sm"
              >
                {product.unit ? <DetailRow label="Unit" value={product.unit} /> : null}
                {product.details.map((detail) => (
                  <DetailRow key={detail.label} label={detail.label} value={detail.value} />
                ))}
              </dl>
            </section>
          </div>
        </div>
      </div>

      {together.length > 0 ? (
        <ProductRow
          title="Frequently bought together"
          seeAllHref={breadcrumbs.subCategory?.href ?? breadcrumbs.category?.href ?? '/'}
          products={together}
          headingId="bought-together"
        />
      ) : null}
      {similar.sameShelf.length > 0 ? (
        <ProductRow
          title="Similar products"
          seeAllHref={breadcrumbs.subCategory?.href ?? breadcrumbs.category?.href ?? '/'}
          products={similar.sameShelf}
          headingId="similar-products"
        />
      ) : null}
      {similar.sameBrand.length > 0 && product.brand ? (
        <ProductRow
          title={`More from ${product.brand}`}
          seeAllHref={`/search?q=${encodeURIComponent(product.brand)}`}
          products={similar.sameBrand}
          headingId="more-from-brand"
        />
      ) : null}
    </div>
  )
}

function DetailRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="border-b border-slate-100 bg-slate-50 px-3 py-2 font-medium text-slate-600">{label}</dt>
      <dd className="border-b border-slate-100 px-3 py-2 break-words text-slate-900">{value}</dd>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
