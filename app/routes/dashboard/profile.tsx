/**
 * /dashboard/profile (docs/product.md, "Profile": the avatar with Edit, which opens an upload dialog,
 * and a form with name, email and mobile; docs/product.md, "Validation rules": all three required,
 * mobile numeric; docs/api-contract.md, "Users": `user/update-user`, `user/upload-avatar` with the
 * multipart field `avatar`).
 *
 * - The form is prefilled from a fresh `user-details` call. A taken email (409) is reported on the
 *   email field. Success refreshes the session's user summary, so the header shows the new name.
 * - The upload dialog is driven by the address: Edit is a link to `?edit-avatar=1`. Without
 *   JavaScript that page shows a plain multipart form; with JavaScript the same form opens as a modal
 *   with a preview. The BFF refuses files over the upload cap (`UPLOAD_MAX_BYTES`, 5 MB by default) before calling the API (which checks again, and
 *   checks that the bytes are an image). Success stores the new avatar url in the session's user
 *   summary, so the header and menus show it on the very next render.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { data, Form, Link, useNavigate, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/profile'
import * as userApi from '../../.server/api/user.ts'
import { requireFreshUser, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { failureInit, failureMessage, type UpstreamFailure } from '../../.server/failure.ts'
import { failedFormReply, formReadFailure, invalidFormReply, tryReadForm } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { Avatar } from '../../components/avatar.tsx'
import { ErrorList, Field, FormAlert, SubmitButton, useIsPending, type FormReplyData } from '../../components/forms.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { Button, buttonClassName } from '../../components/ui/button.tsx'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { useIsStale } from '../../components/use-stale-reply.ts'
import { ProfileSchema } from '../../lib/schemas/account.ts'
import type { ToastMessage } from '../../lib/toast.ts'
import { env } from '../../.server/env.ts'
import {
  CHOOSE_IMAGE_MESSAGE,
  formatByteSize,
  imageTooLargeMessage,
  MULTIPART_OVERHEAD_BYTES,
  useUploadMaxBytes,
} from '../../lib/uploads.ts'
import { apiOf } from '../../.server/api-context.ts'

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
const PROFILE_FORM_ID = 'profile'
const AVATAR_FORM_ID = 'avatar-upload'

export async function loader({ context, url }: Route.LoaderArgs) {
  // Fresh from the API (a change made in another session shows), header summary kept in step.
  const { name, email, mobile, avatar } = await requireFreshUser(context, url)
  return { user: { name, email, mobile: mobile ?? '', avatar }, isEditingAvatar: url.searchParams.get(EDIT_AVATAR_PARAM) === '1' }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  const user = requireUser(context, url)
  const session = getSession(context)

  /** The avatar dialog's answer to a refused upload: its message in the dialog and as an error toast. */
  const avatarFailure = (failure: Pick<UpstreamFailure, 'status' | 'message' | 'retryAfter'>) => {
    const message = failureMessage({ ...failure, ok: false, issues: [] })
    const toast: ToastMessage = { type: 'error', message }
    return data(
      { intent: INTENT_AVATAR, result: undefined, avatarError: message, toast },
      failureInit({ ...failure, ok: false, issues: [] }),
    )
  }

  // A body far over the cap is refused before it is read into memory (OWASP File Upload Cheat Sheet).
  const read = await tryReadForm(request, {
    multipartMaxBytes: env.uploadMaxBytes + MULTIPART_OVERHEAD_BYTES,
    tooLargeMessage: imageTooLargeMessage(env.uploadMaxBytes),
  })
  if (!read.ok) {
    // A multipart body is the avatar form's: a file too large or a broken upload is said in its dialog.
    const isMultipart = (request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')
    if (isMultipart && (read.status === 400 || read.status === 413)) {
      return avatarFailure({ status: read.status, message: read.status === 413 ? read.message : CHOOSE_IMAGE_MESSAGE })
    }
    throw formReadFailure(read)
  }
  const formData = read.formData

  if (formData.get('intent') === INTENT_AVATAR) {
    const file = formData.get('avatar')
    if (!(file instanceof File) || file.size === 0) return avatarFailure({ status: 400, message: CHOOSE_IMAGE_MESSAGE })
    if (file.size > env.uploadMaxBytes) return avatarFailure({ status: 413, message: imageTooLargeMessage(env.uploadMaxBytes) })
    const result = await userApi.uploadAvatar(api, session, file)
    if (!result.ok) return avatarFailure(result)
    session.setUser({ ...(session.user ?? user), avatar: result.data.avatar })
    return redirectWithToast(session, PROFILE_PATH, { type: 'success', message: result.message || 'Avatar updated' })
  }

  const extra = { intent: INTENT_PROFILE, avatarError: null }
  const submission = parseWithZod(formData, { schema: ProfileSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { extra })
  const result = await userApi.updateUser(api, session, submission.value)
  // 409: the email belongs to another account; said on the email field.
  if (!result.ok) return failedFormReply(submission, result, { fields: Object.keys(ProfileSchema.shape), conflictField: 'email', extra })
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
      {isEditingAvatar ? (
        <AvatarUpload user={user} reply={actionData?.intent === INTENT_AVATAR ? actionData : null} />
      ) : actionData?.intent === INTENT_AVATAR ? (
        <ToastNotice toast={actionData.toast} />
      ) : null}
      {/* Remounted when the saved values change, so the inputs show what the API stored. */}
      <ProfileForm
        key={`${user.name}\n${user.email}\n${user.mobile}`}
        user={user}
        reply={actionData?.intent === INTENT_PROFILE ? actionData : undefined}
      />
    </section>
  )
}

function ProfileForm({ user, reply }: { user: ProfileUser; reply: FormReplyData }) {
  const isPending = useIsPending()
  const [form, fields] = useSchemaForm(PROFILE_FORM_ID, ProfileSchema, reply?.result, {
    name: user.name,
    email: user.email,
    mobile: user.mobile,
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
          // With JavaScript, anything but digits is dropped as it is typed (docs/product.md,
          // "Validation rules": numeric).
          onInput: (event) => {
            const input = event.currentTarget
            const digits = input.value.replace(/[^0-9]/g, '')
            if (digits !== input.value) input.value = digits
          },
        }}
        errors={fields.mobile.errors}
      />
      <FormAlert form={form} reply={reply} />
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
function AvatarUpload({ user, reply }: { user: ProfileUser; reply: { avatarError: string | null; toast: ToastMessage | null } | null }) {
  const isHydrated = useHydrated()
  const navigate = useNavigate()
  const navigation = useNavigation()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [clientError, setClientError] = useState<string | null>(null)
  const maxBytes = useUploadMaxBytes()
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
  // The server's reason stands until another file is picked or the form is sent again.
  const isStale = useIsStale(AVATAR_FORM_ID, reply)
  const message = clientError ?? (isStale ? null : reply?.avatarError)

  const content = (
    <Form
      id={AVATAR_FORM_ID}
      method="post"
      action={`${PROFILE_PATH}?${EDIT_AVATAR_PARAM}=1`}
      encType="multipart/form-data"
      noValidate
      className="grid gap-4"
    >
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
            setClientError(file && file.size > maxBytes ? imageTooLargeMessage(maxBytes) : null)
          }}
          className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-slate-100 file:px-4 file:font-semibold file:text-slate-800 hover:file:bg-slate-200"
        />
        <p id="avatar-hint" className="mt-1 text-xs text-slate-500">
          A JPEG, PNG, WebP, AVIF or GIF image of {formatByteSize(maxBytes)} or less. It is cropped to a square.
        </p>
        <ErrorList id="avatar-error" errors={message ? [message] : null} role="alert" />
        <ToastNotice toast={reply?.toast} shownInForm={message ? [message] : null} formId={AVATAR_FORM_ID} />
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
      <section
        aria-labelledby="avatar-upload-title"
        data-card="avatar"
        className="mt-4 max-w-sm rounded-lg border border-slate-200 bg-slate-50 p-4"
      >
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
