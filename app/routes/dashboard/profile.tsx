/**
 * /dashboard/profile (spec section 2 "Profile": the avatar with Edit, which opens an upload dialog,
 * and a form with name, email and mobile; section 5: all three required, mobile numeric; section 7:
 * `user/update-user`, `user/upload-avatar` with the multipart field `avatar`). Issue 3 item 5.
 *
 * - The form is prefilled from a fresh `user-details` call. A taken email (409) is reported on the
 *   email field. Success refreshes the session's user summary, so the header shows the new name.
 * - The upload dialog is driven by the address: Edit is a link to `?edit-avatar=1`. Without
 *   JavaScript that page shows a plain multipart form; with JavaScript the same form opens as a modal
 *   with a preview. The BFF refuses files over 5 MB before calling the API (which checks again, and
 *   checks that the bytes are an image). Success stores the new avatar url in the session's user
 *   summary, so the header and menus show it on the very next render.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { data, Form, Link, useNavigate, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/profile'
import { FormReadError, readFormOrFail } from '../../.server/form.ts'
import * as userApi from '../../.server/api/user.ts'
import { requireFreshUser, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { Avatar } from '../../components/avatar.tsx'
import { ErrorList, Field, SubmitButton, useIsPending } from '../../components/forms.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ToastNotice, type ToastMessage } from '../../components/toasts.tsx'
import { Button, buttonClassName } from '../../components/ui/button.tsx'
import { AVATAR_MAX_BYTES, AVATAR_TOO_LARGE_MESSAGE, ProfileSchema } from '../../lib/schemas/account.ts'
import { MULTIPART_OVERHEAD_BYTES } from '../../lib/uploads.ts'

export const meta: Route.MetaFunction = () => [
  { title: `My Profile | ${SHOP_NAME}` },
  { name: 'description', content: 'Your profile: name, email, mobile and avatar.' },
  { name: 'robots', content: 'noindex' },
]

const PROFILE_PATH = '/dashboard/profile'
/** The query that opens the upload dialog (a page of its own without JavaScript). */
const EDIT_AVATAR_PARAM = 'edit-avatar'
const INTENT_PROFILE = 'profile' as const
const INTENT_AVATAR = 'avatar' as const
const PROFILE_FIELDS = new Set(['name', 'email', 'mobile'])
const CHOOSE_IMAGE_MESSAGE = 'Choose an image to upload'

export async function loader({ context, url }: Route.LoaderArgs) {
  // Fresh from the API (a change made in another session shows), header summary kept in step.
  const { name, email, mobile, avatar } = await requireFreshUser(context, url)
  return { user: { name, email, mobile: mobile ?? '', avatar }, isEditingAvatar: url.searchParams.get(EDIT_AVATAR_PARAM) === '1' }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser(context, url)
  const session = getSession(context)

  const avatarFailure = (status: number, message: string, headers?: HeadersInit) =>
    data(
      { intent: INTENT_AVATAR, result: undefined, avatarError: message, toast: { type: 'error', message } satisfies ToastMessage },
      { status, headers },
    )

  // A body far over the cap is refused before it is read into memory (OWASP File Upload cheat sheet).
  const isMultipart = (request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')
  if (isMultipart && Number(request.headers.get('Content-Length')) > AVATAR_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) {
    return avatarFailure(413, AVATAR_TOO_LARGE_MESSAGE)
  }
  let formData: FormData
  try {
    formData = await readFormOrFail(request, { multipartMaxBytes: AVATAR_MAX_BYTES + MULTIPART_OVERHEAD_BYTES })
  } catch (err) {
    if (!(err instanceof FormReadError)) throw err
    if (isMultipart && (err.status === 400 || err.status === 413)) {
      return avatarFailure(err.status, err.status === 413 ? AVATAR_TOO_LARGE_MESSAGE : CHOOSE_IMAGE_MESSAGE)
    }
    throw data(err.message, { status: err.status })
  }

  if (formData.get('intent') === INTENT_AVATAR) {
    const file = formData.get('avatar')
    if (!(file instanceof File) || file.size === 0) return avatarFailure(400, CHOOSE_IMAGE_MESSAGE)
    if (file.size > AVATAR_MAX_BYTES) return avatarFailure(413, AVATAR_TOO_LARGE_MESSAGE)
    const result = await userApi.uploadAvatar(session, file)
    if (!result.ok) {
      const init = userApi.failureInit(result)
      return avatarFailure(init.status ?? 502, userApi.failureMessage(result), init.headers)
    }
    session.setUser({ ...(session.user ?? user), avatar: result.data.avatar })
    return redirectWithToast(session, PROFILE_PATH, { type: 'success', message: result.message || 'Avatar updated' })
  }

  const submission = parseWithZod(formData, { schema: ProfileSchema })
  if (submission.status !== 'success') {
    return data({ intent: INTENT_PROFILE, result: submission.reply(), avatarError: null, toast: null }, { status: 400 })
  }
  const result = await userApi.updateUser(session, submission.value)
  if (!result.ok) {
    const message = userApi.failureMessage(result)
    const fieldErrors: Record<string, string[]> = {}
    for (const issue of result.issues) {
      if (PROFILE_FIELDS.has(issue.path)) (fieldErrors[issue.path] ??= []).push(issue.message)
    }
    // 409: the email belongs to another account (contract, "Envelope"); say so on the email field.
    if (result.status === 409 && !fieldErrors.email) fieldErrors.email = [message]
    const formErrors = Object.values(fieldErrors).flat().includes(message) ? [] : [message]
    return data(
      {
        intent: INTENT_PROFILE,
        result: submission.reply({ formErrors, fieldErrors }),
        avatarError: null,
        toast: { type: 'error', message } satisfies ToastMessage,
      },
      userApi.failureInit(result),
    )
  }
  session.setUser(userApi.toSessionUser(result.data))
  return redirectWithToast(session, PROFILE_PATH, { type: 'success', message: result.message || 'Profile updated successfully' })
}

type ProfileUser = Route.ComponentProps['loaderData']['user']

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { user, isEditingAvatar } = loaderData
  return (
    <section className="p-4 md:p-6">
      <h1 className="sr-only">My Profile</h1>
      <div className="flex items-center gap-4">
        <Avatar src={user.avatar} name={user.name} size={80} />
        <Link
          to={`?${EDIT_AVATAR_PARAM}=1`}
          preventScrollReset
          aria-label="Edit avatar"
          data-avatar-edit
          className={buttonClassName({ variant: 'secondary', size: 'sm' }) + ' rounded-full'}
        >
          Edit
        </Link>
      </div>
      {isEditingAvatar ? <AvatarUpload user={user} error={actionData?.intent === INTENT_AVATAR ? actionData.avatarError : null} /> : null}
      {/* Remounted when the saved values change, so the inputs show what the API stored. */}
      <ProfileForm
        key={`${user.name}\n${user.email}\n${user.mobile}`}
        user={user}
        lastResult={actionData?.intent === INTENT_PROFILE ? actionData.result : undefined}
      />
      <ToastNotice toast={actionData?.toast} shownInForm={formMessages(actionData, isEditingAvatar)} />
    </section>
  )
}

/**
 * The messages this page renders in a form's `role="alert"` list for `actionData`: the avatar's
 * message while its form is open (`isEditingAvatar`), else the profile form's form-level messages
 * (Conform keeps those under the key ''). ToastNotice does not announce these twice.
 */
function formMessages(actionData: Route.ComponentProps['actionData'], isEditingAvatar: boolean): string[] {
  if (!actionData) return []
  if (actionData.intent === INTENT_AVATAR) return isEditingAvatar && actionData.avatarError ? [actionData.avatarError] : []
  return actionData.result?.error?.[''] ?? []
}

function ProfileForm({ user, lastResult }: { user: ProfileUser; lastResult: SubmissionResult<string[]> | undefined }) {
  const isPending = useIsPending()
  const [form, fields] = useForm({
    id: 'profile',
    lastResult,
    defaultValue: { name: user.name, email: user.email, mobile: user.mobile },
    constraint: getZodConstraint(ProfileSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
  })
  return (
    <Form method="post" action={PROFILE_PATH} {...getFormProps(form)} className="mt-6 grid max-w-lg gap-5">
      <input type="hidden" name="intent" value={INTENT_PROFILE} />
      <Field
        labelProps={{ children: 'Name' }}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name', placeholder: 'Enter your name' }}
        errors={fields.name.errors}
      />
      <Field
        labelProps={{ children: 'Email' }}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: 'Enter your email' }}
        errors={fields.email.errors}
      />
      <Field
        labelProps={{ children: 'Mobile' }}
        inputProps={{
          ...getInputProps(fields.mobile, { type: 'text' }),
          inputMode: 'numeric',
          autoComplete: 'tel-national',
          placeholder: 'Enter your mobile',
          // With JavaScript, anything but digits is dropped as it is typed (spec section 5: numeric).
          onInput: (event) => {
            const input = event.currentTarget
            const digits = input.value.replace(/[^0-9]/g, '')
            if (digits !== input.value) input.value = digits
          },
        }}
        errors={fields.mobile.errors}
      />
      <ErrorList id={form.errorId} errors={form.errors} role="alert" />
      <SubmitButton isPending={isPending} className="sm:w-auto sm:min-w-40">
        {isPending ? 'Saving…' : 'Submit'}
      </SubmitButton>
    </Form>
  )
}

/**
 * The avatar upload: a modal <dialog> with a preview once hydrated, a plain form in the page before
 * (and without JavaScript). Closing it (Cancel, Escape) goes back to the profile without the query.
 */
function AvatarUpload({ user, error }: { user: ProfileUser; error: string | null | undefined }) {
  const isHydrated = useHydrated()
  const navigate = useNavigate()
  const navigation = useNavigation()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [clientError, setClientError] = useState<string | null>(null)
  const isUploading = navigation.state === 'submitting' && navigation.formData?.get('intent') === INTENT_AVATAR

  // Focus goes back where it came from when the dialog closes (Cancel, Escape, upload): the control
  // that opened it, or the Edit link when the page was opened on the dialog (WCAG 2.4.3).
  useEffect(() => {
    const dialog = dialogRef.current
    if (!isHydrated || !dialog) return
    const active = document.activeElement
    const opener = active instanceof HTMLElement && active !== document.body ? active : null
    if (!dialog.open) dialog.showModal()
    return () => {
      const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>('[data-avatar-edit]')
      target?.focus({ preventScroll: true })
    }
  }, [isHydrated])

  // Object URLs hold the file in memory until revoked.
  useEffect(() => (preview ? () => URL.revokeObjectURL(preview) : undefined), [preview])

  const close = () => navigate(PROFILE_PATH, { replace: true, preventScrollReset: true })
  const message = clientError ?? error

  const content = (
    <Form method="post" action={`${PROFILE_PATH}?${EDIT_AVATAR_PARAM}=1`} encType="multipart/form-data" noValidate className="grid gap-4">
      <input type="hidden" name="intent" value={INTENT_AVATAR} />
      <h2 id="avatar-upload-title" className="text-lg font-semibold text-slate-900">
        Upload avatar
      </h2>
      <div className="flex justify-center">
        {preview ? (
          <img
            src={preview}
            alt="Preview of the new avatar"
            width={128}
            height={128}
            className="size-32 rounded-full object-cover ring-1 ring-black/10"
          />
        ) : (
          <Avatar src={user.avatar} name={user.name} size={128} />
        )}
      </div>
      <div>
        <label htmlFor="avatar-file" className="mb-1 block text-sm font-medium text-slate-700">
          Choose an image
        </label>
        <input
          id="avatar-file"
          name="avatar"
          type="file"
          accept="image/*"
          required
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? 'avatar-error avatar-hint' : 'avatar-hint'}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            setPreview(file ? URL.createObjectURL(file) : null)
            setClientError(file && file.size > AVATAR_MAX_BYTES ? AVATAR_TOO_LARGE_MESSAGE : null)
          }}
          className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-slate-100 file:px-4 file:font-semibold file:text-slate-800 hover:file:bg-slate-200"
        />
        <p id="avatar-hint" className="mt-1 text-xs text-slate-500">
          A JPEG, PNG or WebP image of 5 MB or less. It is cropped to a square.
        </p>
        <ErrorList id="avatar-error" errors={message ? [message] : null} role="alert" />
      </div>
      <div className="flex justify-end gap-2">
        <Link to={PROFILE_PATH} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
          Cancel
        </Link>
        <Button type="submit" isPending={isUploading} disabled={Boolean(clientError)}>
          {isUploading ? 'Uploading…' : 'Upload'}
        </Button>
      </div>
    </Form>
  )

  if (!isHydrated) {
    return (
      <section aria-labelledby="avatar-upload-title" className="mt-4 max-w-sm rounded-lg border border-slate-200 bg-slate-50 p-4">
        {content}
      </section>
    )
  }
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="avatar-upload-title"
      onCancel={(event) => {
        event.preventDefault()
        close()
      }}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-xl bg-white p-5 shadow-xl backdrop:bg-black/50"
    >
      {content}
    </dialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
