/**
 * /dashboard/stores (admin; docs/stores.md, "Admin"): the dark stores with their area, city, PIN
 * code, radius, hours, pickers, state and open orders; add (`?dialog=add`), edit (`?edit=<id>`) and
 * deactivate/activate after a confirmation (`?toggle=<id>`), pause with a note or resume (`?pause=<id>`). Every dialog lives in the address and
 * every form is a plain POST, so the page works without JavaScript
 * (docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: `requireStaff` asks the API who the user is now; anyone but an admin or staff gets the red
 *   "Do not have permission" box with 403. Staff see the list with each store's Stock link only (no
 *   add, edit or deactivate: store settings are the admin's; docs/product.md, "Roles and
 *   permissions"). The API checks the role on every call too.
 * - The store form is checked with the API's own schema (app/lib/schemas/store.ts), in the browser
 *   with JavaScript and again here; the API's field issues (an unknown PIN code) land on their fields.
 * - Edits and toggles send the version read: a store changed meanwhile is refused with 409, shown
 *   above the form's button with a link that loads the store again.
 */
import { getFormProps, getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/index'
import * as storeApi from '../../../.server/api/store.ts'
import { adminErrorReply, readAdminForm } from '../../../.server/admin-form.ts'
import { requireStaff, requireUser } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { throwFailure } from '../../../.server/failure.ts'
import { failedFormReply, invalidFormReply, readText } from '../../../.server/form.ts'
import { redirectWithToast } from '../../../.server/toast.ts'
import { RoleGuard } from '../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { ErrorList, FormAlert } from '../../../components/forms.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { ToastNotice } from '../../../components/toasts.tsx'
import { Button, buttonClassName } from '../../../components/ui/button.tsx'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Input, Label, inputClassName } from '../../../components/ui/input.tsx'
import { useSchemaForm } from '../../../components/use-schema-form.ts'
import { countLabel } from '../../../lib/plural.ts'
import { STORE_PAUSE_NOTE_MAX, STORE_RIDER_KMPH_MAX, STORE_RIDER_KMPH_MIN } from '../../../../contract/location.ts'
import { STORE_FORM_FIELDS, StoreFormSchema, storeCreateInput, storeUpdateInput, stockHref } from '../../../lib/schemas/store.ts'
import { apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Stores | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: the dark stores, their radius, hours and pickers.' },
  { name: 'robots', content: 'noindex' },
]

const STORES_PATH = '/dashboard/stores'

/**
 * The guard's decision and, for an admin or staff, every store (GET store/list); `canEdit` for an
 * admin only. Anyone else: 403, no list.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff, isAdmin } = await requireStaff(context, url)
  if (!isStaff) return data({ isStaff: false, canEdit: false, stores: [] as storeApi.Store[] }, { status: 403 })
  const result = await storeApi.listStores(api, getSession(context))
  if (!result.ok) throwFailure(result)
  return data({ isStaff: true, canEdit: isAdmin, stores: result.data })
}

/** The reply of a refused add or edit: Conform's reply, the toast, which dialog, and whether the version was stale. */
type StoreReplyExtra = { intent: 'add' | 'edit'; _id: string | null; stale: boolean }

/**
 * The page's forms, by `intent`: `add` and `edit` (400/409 with field and form messages, else a
 * redirect to the list with the API's message as a toast), `toggle` (always a redirect with a toast;
 * a refusal, such as a stale version, is the error toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, {})
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')
  const _id = readText(formData, '_id')
  const versionText = readText(formData, 'version')
  const version = /^[1-9][0-9]{0,9}$/.test(versionText) ? Number(versionText) : undefined

  if (intent === 'toggle') {
    if (!_id) return redirectWithToast(session, STORES_PATH, { type: 'error', message: 'Choose a store' })
    const active = readText(formData, 'active') === 'true'
    const result = await storeApi.updateStore(api, session, { _id, ...(version ? { version } : {}), active })
    if (!result.ok) return redirectWithToast(session, STORES_PATH, { type: 'error', message: result.message })
    const message = active ? `${result.data.name} is active again` : `${result.data.name} is deactivated`
    return redirectWithToast(session, STORES_PATH, { type: 'success', message })
  }

  if (intent === 'pause') {
    if (!_id) return redirectWithToast(session, STORES_PATH, { type: 'error', message: 'Choose a store' })
    const pausedNote = readText(formData, 'pausedNote') || null
    const result = await storeApi.updateStore(api, session, { _id, ...(version ? { version } : {}), pausedNote })
    if (!result.ok) return redirectWithToast(session, STORES_PATH, { type: 'error', message: result.message })
    const message = result.data.pausedNote
      ? `${result.data.name} is paused: shoppers see "${result.data.pausedNote}"`
      : `${result.data.name} takes orders again`
    return redirectWithToast(session, STORES_PATH, { type: 'success', message })
  }

  if (intent !== 'add' && intent !== 'edit') return adminErrorReply('Unknown action', 400)
  if (intent === 'edit' && !_id) return adminErrorReply('Choose a store to edit', 400)
  const submission = parseWithZod(formData, { schema: StoreFormSchema })
  const extra: StoreReplyExtra = { intent, _id: intent === 'edit' ? _id : null, stale: false }
  if (submission.status !== 'success') return invalidFormReply(submission, { extra })
  const result =
    intent === 'edit'
      ? await storeApi.updateStore(api, session, storeUpdateInput(submission.value, _id, version))
      : await storeApi.createStore(api, session, storeCreateInput(submission.value))
  if (!result.ok) {
    return failedFormReply(submission, result, { fields: STORE_FORM_FIELDS, extra: { ...extra, stale: result.status === 409 } })
  }
  const coordinates = `${result.data.lat.toFixed(4)}, ${result.data.lng.toFixed(4)}`
  const message =
    intent === 'add'
      ? `${result.data.name} added${result.data.coordinatesFromPincode ? ` at ${coordinates} (the pincode's centre)` : ''}`
      : `${result.data.name} saved`
  return redirectWithToast(session, STORES_PATH, { type: 'success', message })
}

type StoreItem = storeApi.Store
type ActionReply = Route.ComponentProps['actionData']

/** The guarded page: the store list and the dialog its address names. */
export default function StoresPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <RoleGuard allowed={loaderData.isStaff}>
      <StoresAdmin stores={loaderData.stores} canEdit={loaderData.canEdit} actionData={actionData} />
    </RoleGuard>
  )
}

/** "06:00–24:00", or "Open 24 hours" for 00:00–24:00. */
function hoursLabel(store: Pick<StoreItem, 'opensAt' | 'closesAt'>): string {
  return store.opensAt === '00:00' && store.closesAt === '24:00' ? 'Open 24 hours' : `${store.opensAt}–${store.closesAt}`
}

function StoresAdmin({ stores, canEdit, actionData }: { stores: StoreItem[]; canEdit: boolean; actionData: ActionReply | undefined }) {
  const [searchParams] = useSearchParams()
  // Staff have no store dialogs: the address's edit, toggle and add are ignored for them.
  const editId = canEdit ? searchParams.get('edit') : null
  const toggleId = canEdit ? searchParams.get('toggle') : null
  const pauseId = canEdit ? searchParams.get('pause') : null
  const isAdding = canEdit && searchParams.get('dialog') === 'add'
  const formReply = actionData && 'result' in actionData ? actionData : null
  const editing = editId ? stores.find((s) => s._id === editId) : undefined
  const toggling = toggleId ? stores.find((s) => s._id === toggleId) : undefined
  const pausing = pauseId ? stores.find((s) => s._id === pauseId) : undefined
  const addReply = isAdding && formReply?.intent === 'add' ? formReply : null
  const editReply = editing && formReply?.intent === 'edit' && formReply._id === editing._id ? formReply : null

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Stores</h1>
        {canEdit ? (
          <Link to="?dialog=add" preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
            Add Store
          </Link>
        ) : null}
      </div>
      <p className="mb-3 text-sm text-slate-600">{countLabel(stores.length, 'store')}</p>

      <ul aria-label="Stores" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {stores.map((store) => (
          <li
            key={store._id}
            data-card="store"
            data-store-id={store._id}
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            <div className="flex items-start justify-between gap-2">
              <h2 className="min-w-0 font-semibold break-words text-slate-900">{store.name}</h2>
              <span
                className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${store.active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-700'}`}
              >
                {store.active ? 'Active' : 'Inactive'}
              </span>
            </div>
            {store.pausedNote ? (
              <p data-field="paused" className="mt-1 rounded-md bg-amber-50 px-2 py-1 text-sm font-semibold break-words text-amber-900">
                Paused: {store.pausedNote}
              </p>
            ) : null}
            <p className="text-sm break-words text-slate-700">
              {store.area}, {store.city} {store.pincode}
            </p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-500">Radius</dt>
              <dd data-field="radius">{store.radiusKm} km</dd>
              <dt className="text-slate-500">Hours</dt>
              <dd>{hoursLabel(store)}</dd>
              <dt className="text-slate-500">Pickers</dt>
              <dd>{store.pickers}</dd>
              <dt className="text-slate-500">Rider speed</dt>
              <dd data-field="rider-speed">{store.riderKmph === null ? 'Default' : `${store.riderKmph} km/h`}</dd>
              <dt className="text-slate-500">Open orders</dt>
              <dd>{store.openOrders}</dd>
              <dt className="text-slate-500">GSTIN</dt>
              <dd data-field="gstin" className="break-words">
                {store.gstin ?? <span className="text-slate-500">The seller&apos;s</span>}
              </dd>
              <dt className="text-slate-500">Invoice code</dt>
              <dd data-field="invoice-code">{store.invoiceCode}</dd>
              <dt className="text-slate-500">Location</dt>
              <dd className="break-words">
                {store.lat.toFixed(4)}, {store.lng.toFixed(4)}
                {store.coordinatesFromPincode ? <span className="block text-xs text-slate-500">from the pincode</span> : null}
              </dd>
            </dl>
            <div className={`mt-3 grid gap-2 ${canEdit ? 'grid-cols-2' : 'grid-cols-1'}`}>
              {canEdit ? (
                <Link
                  to={`?edit=${store._id}`}
                  preventScrollReset
                  aria-label={`Edit ${store.name}`}
                  className="inline-flex min-h-10 items-center justify-center rounded-md bg-green-100 text-sm font-medium text-green-800 hover:bg-green-200"
                >
                  Edit
                </Link>
              ) : null}
              <Link
                to={stockHref(store._id, {})}
                aria-label={`Stock of ${store.name}`}
                className="inline-flex min-h-10 items-center justify-center rounded-md bg-slate-100 text-sm font-medium text-slate-800 hover:bg-slate-200"
              >
                Stock
              </Link>
              {canEdit ? (
                <Link
                  to={`?toggle=${store._id}`}
                  preventScrollReset
                  aria-label={`${store.active ? 'Deactivate' : 'Activate'} ${store.name}`}
                  className={`inline-flex min-h-10 items-center justify-center rounded-md text-sm font-medium ${store.active ? 'bg-red-100 text-red-700 hover:bg-red-200' : 'bg-blue-100 text-blue-800 hover:bg-blue-200'}`}
                >
                  {store.active ? 'Deactivate' : 'Activate'}
                </Link>
              ) : null}
              {canEdit ? (
                <Link
                  to={`?pause=${store._id}`}
                  preventScrollReset
                  aria-label={`${store.pausedNote ? 'Resume' : 'Pause'} ${store.name}`}
                  className="inline-flex min-h-10 items-center justify-center rounded-md bg-amber-100 text-sm font-medium text-amber-900 hover:bg-amber-200"
                >
                  {store.pausedNote ? 'Resume' : 'Pause'}
                </Link>
              ) : null}
            </div>
          </li>
        ))}
      </ul>

      {isAdding ? <StoreFormDialog key="add" mode="add" reply={addReply} stores={stores} /> : null}
      {editId ? (
        editing ? (
          <StoreFormDialog key={`${editing._id}-${editing.version}`} mode="edit" store={editing} reply={editReply} />
        ) : (
          <Dialog title="Edit Store" closeTo={STORES_PATH} size="sm">
            <p className="text-slate-700">This store does not exist any more.</p>
          </Dialog>
        )
      ) : null}
      {toggling ? <ToggleDialog store={toggling} /> : null}
      {pausing ? <PauseDialog store={pausing} /> : null}
      <ToastNotice toast={addReply || editReply ? null : actionData?.toast} />
    </section>
  )
}

/** The deactivate/activate confirmation: what it means for shoppers, Cancel and Confirm (a POST). */
function ToggleDialog({ store }: { store: StoreItem }) {
  const navigation = useNavigation()
  const isPending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'toggle'
  const title = store.active ? `Deactivate ${store.name}?` : `Activate ${store.name}?`
  const message = store.active
    ? 'Shoppers it serves move to the next store that reaches them, or see that we do not deliver there yet. Its open orders stay.'
    : 'It serves the pincodes within its radius again.'
  return (
    <Dialog title={title} description={message} closeTo={STORES_PATH} size="sm">
      <Form method="post" action={STORES_PATH} className="flex justify-end gap-2">
        <input type="hidden" name="intent" value="toggle" />
        <input type="hidden" name="_id" value={store._id} />
        <input type="hidden" name="version" value={store.version} />
        <input type="hidden" name="active" value={store.active ? 'false' : 'true'} />
        <Link to={STORES_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })} data-autofocus>
          Cancel
        </Link>
        <Button type="submit" variant={store.active ? 'danger' : 'primary'} isPending={isPending}>
          {store.active ? 'Deactivate' : 'Activate'}
        </Button>
      </Form>
    </Dialog>
  )
}

/**
 * Pause a store with a note shoppers see at once ("Closed for stock-taking"; no orders until resumed,
 * whatever its hours), or resume it (docs/stores.md, "Pausing a store"). A plain POST.
 */
function PauseDialog({ store }: { store: StoreItem }) {
  const navigation = useNavigation()
  const isPending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pause'
  const resuming = Boolean(store.pausedNote)
  return (
    <Dialog
      title={resuming ? `Resume ${store.name}?` : `Pause ${store.name}?`}
      description={
        resuming
          ? 'It takes orders again within its hours.'
          : 'It takes no orders until you resume it; its shoppers see the note in place of the delivery time. Open orders stay.'
      }
      closeTo={STORES_PATH}
      size="sm"
    >
      <Form method="post" action={STORES_PATH} className="grid gap-3">
        <input type="hidden" name="intent" value="pause" />
        <input type="hidden" name="_id" value={store._id} />
        <input type="hidden" name="version" value={store.version} />
        {resuming ? (
          <input type="hidden" name="pausedNote" value="" />
        ) : (
          <div>
            <Label htmlFor="store-pause-note">Note shown to shoppers</Label>
            <Input
              id="store-pause-note"
              name="pausedNote"
              required
              maxLength={STORE_PAUSE_NOTE_MAX}
              defaultValue="Closed for stock-taking"
            />
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Link to={STORES_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })} data-autofocus>
            Cancel
          </Link>
          <Button type="submit" variant={resuming ? 'primary' : 'danger'} isPending={isPending}>
            {resuming ? 'Resume' : 'Pause'}
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}

/** One labelled input of the store form with its messages and an optional hint under it. */
function StoreField({
  meta,
  label,
  hint,
  ...inputProps
}: {
  meta: FieldMetadata<unknown>
  label: string
  hint?: string
} & Pick<React.ComponentProps<'input'>, 'inputMode' | 'placeholder' | 'autoComplete' | 'maxLength'>) {
  const { key, ...props } = getInputProps(meta as FieldMetadata<string>, { type: 'text' })
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <div className="min-w-0">
      <Label htmlFor={meta.id}>{label}</Label>
      <Input
        key={key}
        {...props}
        {...inputProps}
        aria-describedby={[props['aria-describedby'], hintId].filter(Boolean).join(' ') || undefined}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** "Copy stock from": none (the new store starts empty) or one of the existing stores, active or not. */
function CopyStockField({ meta, stores }: { meta: FieldMetadata<unknown>; stores: StoreItem[] }) {
  const { key, ...props } = getSelectProps(meta as FieldMetadata<string>)
  const hintId = `${meta.id}-hint`
  const hasError = Boolean(meta.errors?.length)
  return (
    <div className="min-w-0">
      <Label htmlFor={meta.id}>Copy stock from (optional)</Label>
      <select
        key={key}
        {...props}
        aria-describedby={[props['aria-describedby'], hintId].filter(Boolean).join(' ')}
        className={inputClassName(hasError)}
      >
        <option value="">None: start with no stock</option>
        {stores.map((s) => (
          <option key={s._id} value={s._id}>
            {s.name}, {s.area}
            {s.active ? '' : ' (inactive)'}
          </option>
        ))}
      </select>
      <p id={hintId} className="mt-1 text-xs text-slate-500">
        The new store starts with that store&apos;s stock of every product; change it afterwards on its stock page.
      </p>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/**
 * Add or edit a store: name, area, city, address line, PIN code, optional latitude and longitude
 * (empty: the PIN code's centre, shown as a hint when editing), radius, opening and closing time,
 * pickers, its own rider speed (empty: the global default; docs/stores.md, "Delivery time"), and its tax identity: GSTIN, invoice code and registered address
 * (docs/decisions/0042-invoice-and-credit-note-numbering.md). A stale version (409) is said above the button with a link that loads the store again.
 * A new store may start from another store's stock ("Copy stock from", `copyStockFrom`; docs/stores.md, "Admin").
 */
function StoreFormDialog({
  mode,
  store,
  reply,
  stores = [],
}: {
  mode: 'add' | 'edit'
  store?: StoreItem
  reply: (NonNullable<ActionReply> & { result: unknown; stale?: boolean }) | null
  /** The stores a new one may copy its stock from (add only). */
  stores?: StoreItem[]
}) {
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === mode
  const ownCoordinates = store && !store.coordinatesFromPincode
  const [form, fields] = useSchemaForm(
    mode === 'add' ? 'store-add' : `store-edit-${store!._id}`,
    StoreFormSchema,
    reply && 'result' in reply ? (reply.result as Parameters<typeof useSchemaForm>[2]) : undefined,
    store
      ? {
          name: store.name,
          area: store.area,
          city: store.city,
          addressLine: store.addressLine,
          pincode: store.pincode,
          lat: ownCoordinates ? String(store.lat) : '',
          lng: ownCoordinates ? String(store.lng) : '',
          radiusKm: String(store.radiusKm),
          opensAt: store.opensAt,
          closesAt: store.closesAt,
          pickers: String(store.pickers),
          riderKmph: store.riderKmph === null ? '' : String(store.riderKmph),
          gstin: store.gstin ?? '',
          registeredAddress: store.registeredAddress ?? '',
          invoiceCode: store.invoiceCode,
        }
      : { radiusKm: '3', opensAt: '06:00', closesAt: '24:00', pickers: '4' },
  )
  const self = mode === 'add' ? `${STORES_PATH}?dialog=add` : `${STORES_PATH}?edit=${store!._id}`
  const coordinateHint =
    store?.coordinatesFromPincode === true
      ? `Filled from the pincode: ${store.lat.toFixed(4)}, ${store.lng.toFixed(4)}`
      : 'Leave empty to use the pincode\u2019s centre'
  const stale = Boolean(reply && 'stale' in reply && reply.stale)

  return (
    <Dialog title={mode === 'add' ? 'Add Store' : 'Edit Store'} closeTo={STORES_PATH} size="lg">
      <Form method="post" action={self} {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value={mode} />
        {store ? <input type="hidden" name="_id" value={store._id} /> : null}
        {store ? <input type="hidden" name="version" value={store.version} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <StoreField meta={fields.name} label="Name" autoComplete="off" />
          <StoreField meta={fields.area} label="Area" autoComplete="off" />
          <StoreField meta={fields.city} label="City" autoComplete="off" />
          <StoreField meta={fields.pincode} label="Pincode" inputMode="numeric" autoComplete="off" maxLength={6} />
        </div>
        <StoreField meta={fields.addressLine} label="Address" autoComplete="off" />
        <div className="grid gap-4 sm:grid-cols-2">
          <StoreField meta={fields.lat} label="Latitude (optional)" inputMode="decimal" hint={coordinateHint} />
          <StoreField meta={fields.lng} label="Longitude (optional)" inputMode="decimal" />
        </div>
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <StoreField meta={fields.radiusKm} label="Radius (km)" inputMode="decimal" />
          <StoreField meta={fields.pickers} label="Pickers" inputMode="numeric" />
          <StoreField meta={fields.opensAt} label="Opens at" placeholder="06:00" inputMode="numeric" maxLength={5} />
          <StoreField meta={fields.closesAt} label="Closes at" placeholder="24:00" inputMode="numeric" maxLength={5} />
        </div>
        <StoreField
          meta={fields.riderKmph}
          label="Rider speed (km/h, optional)"
          inputMode="decimal"
          hint={`${STORE_RIDER_KMPH_MIN} to ${STORE_RIDER_KMPH_MAX}; used for this store's delivery minutes. Empty: the shop's default speed.`}
        />
        <fieldset className="grid gap-4 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-800">Tax invoices</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <StoreField
              meta={fields.gstin}
              label="GSTIN (optional)"
              autoComplete="off"
              maxLength={15}
              placeholder="29AAAAA0000A1ZY"
              hint="Its first two digits are the state of the store's pincode. Empty: the seller's GSTIN."
            />
            <StoreField
              meta={fields.invoiceCode}
              label="Invoice code"
              autoComplete="off"
              maxLength={4}
              placeholder="BLR1"
              hint="Starts its invoice numbers, e.g. BLR1/26-27/00001. Empty on a new store: S and a number."
            />
          </div>
          <StoreField
            meta={fields.registeredAddress}
            label="Registered address (optional)"
            autoComplete="off"
            hint="Printed on its invoices. Empty: the address, city and pincode above."
          />
        </fieldset>
        {mode === 'add' && stores.length > 0 ? <CopyStockField meta={fields.copyStockFrom} stores={stores} /> : null}
        <FormAlert form={form} reply={reply as Parameters<typeof FormAlert>[0]['reply']} />
        {stale && store ? (
          <p className="text-sm">
            <Link to={`${STORES_PATH}?edit=${store._id}`} reloadDocument className="font-semibold text-accent underline">
              Load the latest version of {store.name}
            </Link>
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Link to={STORES_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button type="submit" isPending={isSaving}>
            {isSaving ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}

/** Failures of the loader (an API fault: 502) as the fallback page. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
