/**
 * The route table: mirrors docs/product.md, "Routes" (a root layout with nested children). Static segments
 * rank above dynamic ones, so /dashboard/..., /product/... and /search never reach the listing.
 *
 * Route files are named after their URLs (docs/decisions/0036-route-files-named-after-urls.md), so a
 * URL tells where its module is and a file tells which URL it serves:
 * - the path under app/routes/ is the URL's path: every segment but the last is a folder, the last is
 *   the file name (`/dashboard/orders/export` is `dashboard/orders/export.ts`);
 * - a `:param` segment is written `$param` (`/product/:product` is `product/$product.tsx`) and the
 *   catch-all `*` is `$.tsx`; the URL's own dots stay (`/robots.txt` is `robots.txt.ts`);
 * - a URL with deeper URLs under it is a folder, and its own page is that folder's `index` file
 *   (`/dashboard/orders` is `dashboard/orders/index.tsx`, `/` is `index.tsx`);
 * - the layout wrapping a folder's pages is that folder's `layout.tsx` (`/dashboard`);
 * - `.tsx` for a page, `.ts` for a resource route (no component); a route's own server code (its
 *   action's steps) sits beside it as `<file>.server.ts`, its tests as `<file>.test.ts`; server code
 *   several routes share stays in app/.server/.
 * Each URL has its own module; a route id is the file's path (React Router's default) unless set here.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [
  index('routes/index.tsx'),
  route('search', 'routes/search.tsx'),
  route('buy-again', 'routes/buy-again.tsx'),
  route('login', 'routes/login/index.tsx'),
  route('login/phone', 'routes/login/phone.tsx'),
  route('register', 'routes/register.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('verification-otp', 'routes/verification-otp.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  route('user', 'routes/user.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout/index.tsx'),
  route('checkout/pay/:orderId', 'routes/checkout/pay/$orderId.tsx'),
  route('checkout/payment/callback', 'routes/checkout/payment/callback.ts'),
  route('success', 'routes/success.tsx'),
  route('location', 'routes/location.tsx'),
  route('rider', 'routes/rider.tsx'),
  // /dashboard itself redirects to /dashboard/profile (the layout's middleware). The admin pages
  // (category, subcategory, upload-product, product) join these children.
  route('dashboard', 'routes/dashboard/layout.tsx', [
    route('profile', 'routes/dashboard/profile.tsx'),
    route('myorder', 'routes/dashboard/myorder/index.tsx'),
    route('myorder/:orderId', 'routes/dashboard/myorder/$orderId/index.tsx'),
    route('myorder/:orderId/events', 'routes/dashboard/myorder/$orderId/events.ts'),
    route('myorder/:orderId/invoice', 'routes/dashboard/myorder/$orderId/invoice.ts', { id: 'order-invoice' }),
    route('myorder/:orderId/credit-note', 'routes/dashboard/myorder/$orderId/credit-note.ts', { id: 'order-credit-note' }),
    route('myorder/:orderId/help', 'routes/dashboard/myorder/$orderId/help.tsx'),
    route('orders', 'routes/dashboard/orders/index.tsx'),
    route('dispatch', 'routes/dashboard/dispatch.tsx'),
    route('issues', 'routes/dashboard/issues.tsx'),
    route('orders/export', 'routes/dashboard/orders/export.ts'),
    route('orders/packing-slips', 'routes/dashboard/orders/packing-slips.tsx'),
    route('orders/:orderId', 'routes/dashboard/orders/$orderId/index.tsx'),
    route('orders/:orderId/invoice', 'routes/dashboard/orders/$orderId/invoice.ts', { id: 'admin-order-invoice' }),
    route('orders/:orderId/credit-note', 'routes/dashboard/orders/$orderId/credit-note.ts', { id: 'admin-order-credit-note' }),
    route('stores', 'routes/dashboard/stores/index.tsx'),
    route('stores/:storeId/stock', 'routes/dashboard/stores/$storeId/stock/index.tsx'),
    route('stores/:storeId/stock/export', 'routes/dashboard/stores/$storeId/stock/export.ts'),
    route('stores/:storeId/stock/import', 'routes/dashboard/stores/$storeId/stock/import.tsx'),
    route('staff', 'routes/dashboard/staff.tsx'),
    route('coupons', 'routes/dashboard/coupons.tsx'),
    route('audit', 'routes/dashboard/audit.tsx'),
    route('address', 'routes/dashboard/address.tsx'),
    route('category', 'routes/dashboard/category.tsx'),
    route('subcategory', 'routes/dashboard/subcategory.tsx'),
    route('upload-product', 'routes/dashboard/upload-product.tsx'),
    route('product', 'routes/dashboard/product/index.tsx'),
    route('product/export', 'routes/dashboard/product/export.ts'),
    route('product/import', 'routes/dashboard/product/import.tsx'),
  ]),
  route('product/:product', 'routes/product/$product.tsx'),
  // The rest of a home row, asked for when the row is scrolled (a resource route: JSON, no page).
  route('home-row/:categoryId', 'routes/home-row/$categoryId.ts'),
  // Crawlers' files (docs/seo.md): resource routes, no page around them.
  route('robots.txt', 'routes/robots.txt.ts'),
  route('sitemap.xml', 'routes/sitemap.xml.ts', { id: 'sitemap-index' }),
  route('sitemaps/:file', 'routes/sitemaps/$file.ts', { id: 'sitemap-file' }),
  route(':category', 'routes/$category/index.tsx'),
  route(':category/:subCategory', 'routes/$category/$subCategory.tsx'),
  route('*', 'routes/$.tsx'),
] satisfies RouteConfig
