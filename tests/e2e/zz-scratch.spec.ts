import { test, expect } from '@playwright/test'
import { ADMIN, FIXTURES, api, uniqueName } from './helpers.ts'
import fs from 'node:fs'
import { cleanUpViaApi } from './admin.spec.ts'

test('cleanup works', async ({ request }, testInfo) => {
  const names = { category: uniqueName(testInfo, 'Category'), subCategory: uniqueName(testInfo, 'Sub'), product: uniqueName(testInfo, 'Product') }
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  const headers = { Authorization: `Bearer ${login.data.accessToken}` }
  const up = await request.post('/api/file/upload', { headers, multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.png) } } })
  const url = (await up.json()).data.url
  const cat = await (await request.post('/api/category/add-category', { headers, data: { name: names.category, image: url } })).json()
  const sub = await (await request.post('/api/subcategory/create', { headers, data: { name: names.subCategory, image: url, category: [cat.data._id] } })).json()
  const prod = await request.post('/api/product/create', { headers, data: { name: names.product, image: [url], category: [cat.data._id], subCategory: [sub.data._id], unit: '1', stock: 1, price: 10, discount: 0, description: 'x', more_details: {} } })
  expect(prod.ok(), await prod.text()).toBe(true)
  await cleanUpViaApi(request, names)
  const cats = (await api<{ name: string }[]>(request, '/category/get')).data
  expect(cats.some((c) => c.name === names.category)).toBe(false)
})
