/**
 * /dashboard/staff (admin; docs/product.md, "Staff"): the team, admins first, each with their email,
 * role, store, state and last sign-in; invite by email (`?dialog=invite`) with a role and, for staff,
 * a store; change a member's role or store; deactivate or activate after a confirmation
 * (`?toggle=<id>`). Every dialog lives in the address and every form is a plain POST, so the page
 * works without JavaScript (docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: `requireAdmin` asks the API who the user is now; anyone else gets the red "Do not have
 *   permission" box with 403. The API checks the role on every call too.
 * - The invite form is checked with the API's own schema (contract/staff.ts `InviteStaffSchema`), in
 *   the browser with JavaScript and again here; the API's refusals land on their fields.
 * - The signed-in admin's own card has no controls: the API refuses an admin's change to their own
 *   role or state, and the demotion of the last active admin (409), so the shop cannot be locked out.
 */
import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/staff'
import * as staffApi from '../../.server/api/staff.ts'
import * as storeApi from '../../.server/api/store.ts'
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
import { ConfirmDialog, Dialog } from '../../components/ui/dialog.tsx'
import { Input, Label } from '../../components/ui/input.tsx'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { formatOrderTime } from '../../lib/order-status.ts'
import { countLabel } from '../../lib/plural.ts'
import { InviteStaffSchema, TEAM_ROLE_LABELS, TEAM_ROLES, type StaffMember } from '../../../contract/staff.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Staff | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: the team, their roles and stores.' },
  { name: 'robots', content: 'noindex' },
]

const STAFF_PATH = '/dashboard/staff'
const INVITE_FIELDS = ['email', 'role', 'storeId', 'name']

/** For an admin: the team, the stores (for the store choices) and the admin's own id. Anyone else: the thrown 403 of `requireAdmin`. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const admin = await requireAdmin(context, url)
  const session = getSession(context)
  const [team, stores] = await Promise.all([staffApi.listTeam(api, session), storeApi.listStores(api, session)])
  if (!team.ok) throwFailure(team)
  if (!stores.ok) throwFailure(stores)
  return data({
    selfId: admin._id,
    team: team.data,
    stores: stores.data.map((s) => ({ _id: s._id, name: s.name, active: s.active })),
  })
}

/**
 * The page's forms, by `intent`: `invite` (400/409 with field and form messages, else a redirect to
 * the list with a toast), `update` (a member's role and store) and `status` (deactivate or activate),
 * both answered by a redirect with a toast (a refusal is the error toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, {})
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')

  if (intent === 'update' || intent === 'status') {
    const _id = readText(formData, '_id')
    if (!_id) return redirectWithToast(session, STAFF_PATH, { type: 'error', message: 'Choose a team member' })
    const input =
      intent === 'status'
        ? { _id, status: readText(formData, 'status') === 'Active' ? ('Active' as const) : ('Inactive' as const) }
        : { _id, role: readText(formData, 'role') as staffApi.StaffMember['role'], storeId: readText(formData, 'storeId') || null }
    const result = await staffApi.updateStaff(api, session, input)
    if (!result.ok) return redirectWithToast(session, STAFF_PATH, { type: 'error', message: result.message })
    const member = result.data
    const message =
      intent === 'status'
        ? `${member.name} is ${member.status === 'Active' ? 'active again' : 'deactivated: their sessions have ended'}`
        : member.role === 'USER'
          ? `${member.name} is no longer on the team`
          : `${member.name} saved`
    return redirectWithToast(session, STAFF_PATH, { type: 'success', message })
  }

  if (intent !== 'invite') return adminErrorReply('Unknown action', 400)
  const submission = parseWithZod(formData, { schema: InviteStaffSchema })
  if (submission.status !== 'success') return invalidFormReply(submission)
  const result = await staffApi.inviteStaff(api, session, submission.value)
  if (!result.ok) return failedFormReply(submission, result, { fields: INVITE_FIELDS, conflictField: 'email' })
  const { member, created } = result.data
  const role = TEAM_ROLE_LABELS[member.role].toLowerCase()
  const message = created ? `${member.email} invited as ${role}: a mail tells them how to sign in` : `${member.name} is now ${role}`
  return redirectWithToast(session, STAFF_PATH, { type: 'success', message })
}

type StoreChoice = { _id: string; name: string; active: boolean }
type ActionReply = Route.ComponentProps['actionData']

export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const { team, stores, selfId } = loaderData
  const [searchParams] = useSearchParams()
  const isInviting = searchParams.get('dialog') === 'invite'
  const toggleId = searchParams.get('toggle')
  const toggling = toggleId && toggleId !== selfId ? team.find((m) => m._id === toggleId) : undefined
  const inviteReply = actionData && 'result' in actionData ? actionData : null

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Staff</h1>
        <Link to="?dialog=invite" preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
          Invite
        </Link>
      </div>
      <p className="mb-3 text-sm text-slate-600">
        {countLabel(team.length, 'team member')}. Staff run the order desk and their store&apos;s stock; admins run everything.
      </p>

      <ul aria-label="Team" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {team.map((member) => (
          <MemberCard key={member._id} member={member} stores={stores} isSelf={member._id === selfId} />
        ))}
      </ul>

      {isInviting ? <InviteDialog stores={stores} reply={inviteReply} /> : null}
      {toggling ? <StatusDialog member={toggling} /> : null}
      <ToastNotice toast={inviteReply ? null : actionData?.toast} />
    </section>
  )
}

/** One member: who, role, store, state, last sign-in; for anyone but the admin themself, the role and store form and the deactivate link. */
function MemberCard({ member, stores, isSelf }: { member: StaffMember; stores: StoreChoice[]; isSelf: boolean }) {
  const navigation = useNavigation()
  const isSaving =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === 'update' && navigation.formData.get('_id') === member._id
  const active = member.status === 'Active'
  return (
    <li data-card="member" data-member-id={member._id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-2">
        <h2 className="min-w-0 font-semibold break-words text-slate-900">
          {member.name}
          {isSelf ? <span className="ml-1 text-sm font-normal text-slate-500">(you)</span> : null}
        </h2>
        <span
          data-field="status"
          className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-700'}`}
        >
          {active ? 'Active' : member.status}
        </span>
      </div>
      <p className="text-sm break-all text-slate-700">{member.email ?? member.mobile}</p>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Role</dt>
        <dd data-field="role">{TEAM_ROLE_LABELS[member.role]}</dd>
        <dt className="text-slate-500">Store</dt>
        <dd data-field="store" className="break-words">
          {member.role === 'ADMIN' ? 'Every store' : (member.storeName ?? <span className="text-slate-500">None chosen</span>)}
        </dd>
        <dt className="text-slate-500">Last sign-in</dt>
        <dd>{member.lastLoginDate ? formatOrderTime(member.lastLoginDate) : <span className="text-slate-500">Never</span>}</dd>
      </dl>
      {isSelf ? null : (
        <>
          <Form method="post" action={STAFF_PATH} className="mt-3 grid grid-cols-2 gap-2" aria-label={`Role and store of ${member.name}`}>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="_id" value={member._id} />
            <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
              Role
              <select name="role" defaultValue={member.role} className={selectClass}>
                {[...TEAM_ROLES, 'USER' as const].map((role) => (
                  <option key={role} value={role}>
                    {TEAM_ROLE_LABELS[role]}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
              Store
              <select name="storeId" defaultValue={member.storeId ?? ''} className={selectClass}>
                <option value="">{member.role === 'ADMIN' ? 'Every store' : 'None'}</option>
                <StoreOptions stores={stores} />
              </select>
            </label>
            <Button type="submit" variant="secondary" size="sm" isPending={isSaving} className="col-span-2">
              Save {member.name}
            </Button>
          </Form>
          <Link
            to={`?toggle=${member._id}`}
            preventScrollReset
            aria-label={`${active ? 'Deactivate' : 'Activate'} ${member.name}`}
            className={`mt-2 inline-flex min-h-10 w-full items-center justify-center rounded-md text-sm font-medium ${active ? 'bg-red-100 text-red-700 hover:bg-red-200' : 'bg-blue-100 text-blue-800 hover:bg-blue-200'}`}
          >
            {active ? 'Deactivate' : 'Activate'}
          </Link>
        </>
      )}
    </li>
  )
}

const selectClass = 'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm'

/** The stores as `<option>`s, an inactive one marked so. */
function StoreOptions({ stores }: { stores: StoreChoice[] }) {
  return (
    <>
      {stores.map((store) => (
        <option key={store._id} value={store._id}>
          {store.active ? store.name : `${store.name} (inactive)`}
        </option>
      ))}
    </>
  )
}

/** Deactivate or activate one member after saying what it does (a POST). */
function StatusDialog({ member }: { member: StaffMember }) {
  const navigation = useNavigation()
  const active = member.status === 'Active'
  return (
    <ConfirmDialog
      title={`${active ? 'Deactivate' : 'Activate'} ${member.name}?`}
      message={
        active
          ? 'Their sessions end at once and they cannot sign in until an admin activates them again. Their past changes stay in the audit trail.'
          : 'They can sign in again with their email and password.'
      }
      cancelTo={STAFF_PATH}
      action={STAFF_PATH}
      fields={{ intent: 'status', _id: member._id, status: active ? 'Inactive' : 'Active' }}
      isPending={navigation.state !== 'idle' && navigation.formData?.get('intent') === 'status'}
      confirmLabel={active ? 'Deactivate' : 'Activate'}
    />
  )
}

/** Invite by email: the role, the store (staff only) and an optional name for a new account. */
function InviteDialog({ stores, reply }: { stores: StoreChoice[]; reply: (NonNullable<ActionReply> & { result: unknown }) | null }) {
  const navigation = useNavigation()
  const isSending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'invite'
  const [form, fields] = useSchemaForm(
    'staff-invite',
    InviteStaffSchema,
    reply ? (reply.result as Parameters<typeof useSchemaForm>[2]) : undefined,
    { role: 'STAFF' },
  )
  const { key: emailKey, ...emailProps } = getInputProps(fields.email, { type: 'email' })
  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: 'text' })
  const { key: roleKey, ...roleProps } = getSelectProps(fields.role)
  const { key: storeKey, ...storeProps } = getSelectProps(fields.storeId)
  return (
    <Dialog title="Invite to the team" closeTo={STAFF_PATH} size="md">
      <Form method="post" action={`${STAFF_PATH}?dialog=invite`} {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value="invite" />
        <div className="min-w-0">
          <Label htmlFor={fields.email.id}>Email</Label>
          <Input key={emailKey} {...emailProps} autoComplete="off" />
          <ErrorList id={fields.email.errorId} errors={fields.email.errors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <Label htmlFor={fields.role.id}>Role</Label>
            <select key={roleKey} {...roleProps} className={selectClass}>
              {TEAM_ROLES.map((role) => (
                <option key={role} value={role}>
                  {TEAM_ROLE_LABELS[role]}
                </option>
              ))}
            </select>
            <ErrorList id={fields.role.errorId} errors={fields.role.errors} />
          </div>
          <div className="min-w-0">
            <Label htmlFor={fields.storeId.id}>Store (staff and riders)</Label>
            <select key={storeKey} {...storeProps} className={selectClass}>
              <option value="">Choose a store</option>
              <StoreOptions stores={stores.filter((s) => s.active)} />
            </select>
            <ErrorList id={fields.storeId.errorId} errors={fields.storeId.errors} />
          </div>
        </div>
        <div className="min-w-0">
          <Label htmlFor={fields.name.id}>Name (for a new account)</Label>
          <Input key={nameKey} {...nameProps} autoComplete="off" />
          <ErrorList id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <p className="text-sm text-slate-600">
          A new account is mailed how to set its password. Team accounts sign in with email and password, never by SMS code.
        </p>
        <FormAlert form={form} reply={reply as Parameters<typeof FormAlert>[0]['reply']} />
        <div className="flex justify-end gap-2">
          <Link to={STAFF_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button type="submit" variant="brand" isPending={isSending}>
            Send invite
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
