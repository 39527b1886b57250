/**
 * The route table: mirrors docs/product.md, "Routes" (a root layout with nested children). Static segments
 * rank above dynamic ones, so /dashboard/..., /product/... and /search never reach the listing.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [
  index('routes/home.tsx'),
  route('search', 'routes/search.tsx'),
  route('login', 'routes/login.tsx'),
  route('register', 'routes/register.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('verification-otp', 'routes/verification-otp.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  route('user', 'routes/user.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('checkout/pay/:orderId', 'routes/checkout-pay.tsx'),
  route('checkout/payment/callback', 'routes/checkout-callback.ts'),
  route('success', 'routes/success.tsx'),
  route('location', 'routes/location.tsx'),
  // /dashboard itself redirects to /dashboard/profile (the layout's middleware). The admin pages
  // (category, subcategory, upload-product, product) join these children.
  route('dashboard', 'routes/dashboard/layout.tsx', [
    route('profile', 'routes/dashboard/profile.tsx'),
    route('myorder', 'routes/dashboard/myorder.tsx'),
    route('myorder/:orderId', 'routes/dashboard/order.tsx'),
    route('myorder/:orderId/events', 'routes/dashboard/order-events.ts'),
    route('myorder/:orderId/invoice', 'routes/dashboard/invoice.ts', { id: 'order-invoice' }),
    route('orders', 'routes/dashboard/orders.tsx'),
    route('orders/export', 'routes/dashboard/orders-export.ts'),
    route('orders/packing-slips', 'routes/dashboard/packing-slips.tsx'),
    route('orders/:orderId', 'routes/dashboard/admin-order.tsx'),
    route('orders/:orderId/invoice', 'routes/dashboard/invoice.ts', { id: 'admin-order-invoice' }),
    route('stores', 'routes/dashboard/stores.tsx'),
    route('stores/:storeId/stock', 'routes/dashboard/store-stock.tsx'),
    route('audit', 'routes/dashboard/audit.tsx'),
    route('address', 'routes/dashboard/address.tsx'),
    route('category', 'routes/dashboard/category.tsx'),
    route('subcategory', 'routes/dashboard/subcategory.tsx'),
    route('upload-product', 'routes/dashboard/upload-product.tsx'),
    route('product', 'routes/dashboard/product.tsx'),
    route('product/export', 'routes/dashboard/product-export.ts'),
    route('product/import', 'routes/dashboard/product-import.tsx'),
  ]),
  route('product/:product', 'routes/product.tsx'),
  // Crawlers' files (docs/seo.md): resource routes, no page around them.
  route('robots.txt', 'routes/robots.ts'),
  // The page cache's reading of a visitor's cart and user (app/.server/page-cache.ts); 404 for anyone else.
  route('_personal', 'routes/personal-data.ts'),
  route('sitemap.xml', 'routes/sitemap.ts', { id: 'sitemap-index' }),
  route('sitemaps/:file', 'routes/sitemap.ts', { id: 'sitemap-file' }),
  route(':category', 'routes/category.tsx'),
  route(':category/:subCategory', 'routes/listing.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
