/**
 * /dashboard/coupons (admin; docs/offers.md, "Coupons"): every coupon with its rules, an on/off
 * switch on each, and a form to create one (`?dialog=create`). Every dialog lives in the address and
 * every form is a plain POST, so the page works without JavaScript
 * (docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: `requireAdmin` asks the API who the user is now; anyone else gets the red "Do not have
 *   permission" box with 403. The API checks the role on every call too and audits every change.
 * - The create form is checked with the API's own schema (contract/coupon.ts `CreateCouponSchema`),
 *   in the browser with JavaScript and again here; the API's refusals land on their fields.
 */
import { getFormProps, getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/coupons'
import * as couponApi from '../../.server/api/coupon.ts'
import * as storeApi from '../../.server/api/store.ts'
import { listCategories } from '../../.server/api/catalog.ts'
import { adminErrorReply, readAdminForm } from '../../.server/admin-form.ts'
import { requireAdmin, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { throwFailure } from '../../.server/failure.ts'
import { failedFormReply, invalidFormReply, readText } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { apiOf } from '../../.server/api-context.ts'
import { AdminErrorBoundary } from '../../components/admin-guard.tsx'
import { ErrorList, FormAlert } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { Button, buttonClassName } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { Input, Label } from '../../components/ui/input.tsx'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { formatOrderTime } from '../../lib/order-status.ts'
import { countLabel } from '../../lib/plural.ts'
import { CreateCouponSchema, couponOffWords, type Coupon } from '../../../contract/coupon.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Coupons | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: coupons and their rules.' },
  { name: 'robots', content: 'noindex' },
]

const COUPONS_PATH = '/dashboard/coupons'
const CREATE_FIELDS = [
  'code',
  'description',
  'kind',
  'amount',
  'percent',
  'maxDiscount',
  'minBasket',
  'startsAt',
  'endsAt',
  'firstOrderOnly',
  'perUserLimit',
  'totalLimit',
  'storeId',
  'categoryId',
]

type Choice = { _id: string; name: string }

/** For an admin: the coupons, and the stores and categories a coupon may be limited to. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const session = getSession(context)
  const [list, stores, categories] = await Promise.all([
    couponApi.listCoupons(api, session),
    storeApi.listStores(api, session),
    listCategories(api),
  ])
  if (!list.ok) throwFailure(list)
  if (!stores.ok) throwFailure(stores)
  return data({
    coupons: list.data,
    stores: stores.data.map((s) => ({ _id: s._id, name: s.name })),
    categories: categories.map((c) => ({ _id: c._id, name: c.name })),
  })
}

/**
 * The page's forms, by `intent`: `create` (400/409 with field and form messages, else a redirect to
 * the list with a toast) and `active` (switch a coupon on or off, answered by a redirect with a toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, {})
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')

  if (intent === 'active') {
    const _id = readText(formData, '_id')
    const active = readText(formData, 'active') === 'true'
    const result = await couponApi.updateCoupon(api, session, { _id, active })
    if (!result.ok) return redirectWithToast(session, COUPONS_PATH, { type: 'error', message: result.message })
    return redirectWithToast(session, COUPONS_PATH, {
      type: 'success',
      message: `${result.data.code} is ${result.data.active ? 'on' : 'off'}`,
    })
  }

  if (intent !== 'create') return adminErrorReply('Unknown action', 400)
  const submission = parseWithZod(formData, { schema: CreateCouponSchema })
  if (submission.status !== 'success') return invalidFormReply(submission)
  const result = await couponApi.createCoupon(api, session, submission.value)
  if (!result.ok) return failedFormReply(submission, result, { fields: CREATE_FIELDS, conflictField: 'code' })
  return redirectWithToast(session, COUPONS_PATH, { type: 'success', message: `${result.data.code} created` })
}

type ActionReply = Route.ComponentProps['actionData']

export default function CouponsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons, stores, categories } = loaderData
  const [searchParams] = useSearchParams()
  const isCreating = searchParams.get('dialog') === 'create'
  const createReply = actionData && 'result' in actionData ? actionData : null
  const storeName = new Map(stores.map((s) => [s._id, s.name]))
  const categoryName = new Map(categories.map((c) => [c._id, c.name]))

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Coupons</h1>
        <Link to="?dialog=create" preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
          New coupon
        </Link>
      </div>
      <p className="mb-3 text-sm text-slate-600">
        {countLabel(coupons.length, 'coupon')}. Shoppers apply codes at checkout (docs/offers.md, "Applying a code"); a switched-off coupon
        applies nowhere.
      </p>
      <ul aria-label="Coupons" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {coupons.map((coupon) => (
          <CouponCard
            key={coupon._id}
            coupon={coupon}
            store={coupon.storeId ? storeName.get(coupon.storeId) : undefined}
            category={coupon.categoryId ? categoryName.get(coupon.categoryId) : undefined}
          />
        ))}
      </ul>
      {isCreating ? <CreateDialog stores={stores} categories={categories} reply={createReply} /> : null}
      <ToastNotice toast={createReply ? null : actionData?.toast} />
    </section>
  )
}

/** One coupon: its code, what it takes off, its rules, and the on/off switch (a POST). */
function CouponCard({ coupon, store, category }: { coupon: Coupon; store?: string; category?: string }) {
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('_id') === coupon._id
  const limits = [
    coupon.perUserLimit ? `${countLabel(coupon.perUserLimit, 'use')} per shopper` : null,
    coupon.totalLimit ? `${countLabel(coupon.totalLimit, 'use')} in all` : null,
  ].filter(Boolean)
  return (
    <li data-card="coupon" data-code={coupon.code} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-2">
        <h2 className="min-w-0 font-mono font-semibold break-all text-slate-900">{coupon.code}</h2>
        <span
          data-field="active"
          className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${coupon.active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-700'}`}
        >
          {coupon.active ? 'On' : 'Off'}
        </span>
      </div>
      {coupon.description ? <p className="text-sm break-words text-slate-700">{coupon.description}</p> : null}
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Off</dt>
        <dd>{couponOffWords(coupon)}</dd>
        <dt className="text-slate-500">Minimum</dt>
        <dd>₹{coupon.minBasket}</dd>
        <dt className="text-slate-500">Valid</dt>
        <dd className="break-words">
          {coupon.startsAt ? `from ${formatOrderTime(coupon.startsAt)} ` : ''}
          {coupon.endsAt ? `until ${formatOrderTime(coupon.endsAt)}` : coupon.startsAt ? '' : 'Always'}
        </dd>
        <dt className="text-slate-500">Who</dt>
        <dd>{coupon.firstOrderOnly ? 'First order only' : 'Every shopper'}</dd>
        <dt className="text-slate-500">Limits</dt>
        <dd>{limits.length ? limits.join(', ') : 'None'}</dd>
        <dt className="text-slate-500">Where</dt>
        <dd className="break-words">
          {store ?? 'Every store'}
          {category ? `, ${category} only` : ''}
        </dd>
      </dl>
      <Form method="post" action={COUPONS_PATH} className="mt-3">
        <input type="hidden" name="intent" value="active" />
        <input type="hidden" name="_id" value={coupon._id} />
        <input type="hidden" name="active" value={coupon.active ? 'false' : 'true'} />
        <Button type="submit" variant="secondary" size="sm" isPending={isSaving} className="w-full">
          {coupon.active ? `Switch ${coupon.code} off` : `Switch ${coupon.code} on`}
        </Button>
      </Form>
    </li>
  )
}

const selectClass = 'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm'

/** The create form: code, kind and amount, the minimum basket, the window (IST), who and how often, where. */
function CreateDialog({
  stores,
  categories,
  reply,
}: {
  stores: Choice[]
  categories: Choice[]
  reply: (NonNullable<ActionReply> & { result: unknown }) | null
}) {
  const navigation = useNavigation()
  const isSending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'create'
  const [form, fields] = useSchemaForm(
    'coupon-create',
    CreateCouponSchema,
    reply ? (reply.result as Parameters<typeof useSchemaForm>[2]) : undefined,
    { kind: 'flat', minBasket: '0' },
  )
  const input = (name: keyof typeof fields, label: string, type: 'text' | 'number' | 'datetime-local') => {
    // One helper for fields of several value types: Conform's props are the same strings for each.
    const field = fields[name] as FieldMetadata<string>
    const { key, ...props } = getInputProps(field, { type })
    return (
      <div className="min-w-0">
        <Label htmlFor={field.id}>{label}</Label>
        <Input key={key} {...props} autoComplete="off" />
        <ErrorList id={field.errorId} errors={field.errors} />
      </div>
    )
  }
  const select = (name: 'kind' | 'storeId' | 'categoryId', label: string, options: { value: string; label: string }[]) => {
    const field = fields[name]
    const { key, ...props } = getSelectProps(field)
    return (
      <div className="min-w-0">
        <Label htmlFor={field.id}>{label}</Label>
        <select key={key} {...props} className={selectClass}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <ErrorList id={field.errorId} errors={field.errors} />
      </div>
    )
  }
  return (
    <Dialog title="New coupon" closeTo={COUPONS_PATH} size="md">
      <Form method="post" action={`${COUPONS_PATH}?dialog=create`} {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value="create" />
        <div className="grid gap-4 sm:grid-cols-2">
          {input('code', 'Code', 'text')}
          {select('kind', 'Kind', [
            { value: 'flat', label: 'Flat ₹ off' },
            { value: 'percent', label: 'Percent off' },
          ])}
        </div>
        {input('description', 'Description (shown to shoppers)', 'text')}
        <div className="grid gap-4 sm:grid-cols-3">
          {input('amount', 'Flat: ₹ off', 'number')}
          {input('percent', 'Percent: % off', 'number')}
          {input('maxDiscount', 'Percent: at most ₹', 'number')}
        </div>
        {input('minBasket', 'Minimum basket ₹', 'number')}
        <div className="grid gap-4 sm:grid-cols-2">
          {input('startsAt', 'Starts (IST, optional)', 'datetime-local')}
          {input('endsAt', 'Ends (IST, optional)', 'datetime-local')}
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" id={fields.firstOrderOnly.id} name={fields.firstOrderOnly.name} value="on" className="h-5 w-5" />
          First order only
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          {input('perUserLimit', 'Uses per shopper (optional)', 'number')}
          {input('totalLimit', 'Uses in all (optional)', 'number')}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {select('storeId', 'Store', [{ value: '', label: 'Every store' }, ...stores.map((s) => ({ value: s._id, label: s.name }))])}
          {select('categoryId', 'Category', [
            { value: '', label: 'Every category' },
            ...categories.map((c) => ({ value: c._id, label: c.name })),
          ])}
        </div>
        <FormAlert form={form} reply={reply as Parameters<typeof FormAlert>[0]['reply']} />
        <div className="flex justify-end gap-2">
          <Link to={COUPONS_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button type="submit" variant="brand" isPending={isSending}>
            Create coupon
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
