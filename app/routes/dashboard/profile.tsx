/**
 * /dashboard/profile (docs/product.md, "Profile": the avatar with Edit, which opens an upload dialog,
 * and a form with name, email and mobile; docs/product.md, "Validation rules": all three required,
 * mobile numeric; docs/api-contract.md, "Users": `user/update-user`, `user/upload-avatar` with the
 * multipart field `avatar`).
 *
 * - The form is prefilled from a fresh `user-details` call. A taken email (409) is reported on the
 *   email field. Success refreshes the session's user summary, so the header shows the new name.
 * - Mobile number (docs/decisions/0054-phone-sign-in-pages.md): the number and whether it is
 *   verified; "Verify" / "Add mobile number" / "Change" run the two SMS-code steps of phone sign-in
 *   (`?mobile=number`, then `?mobile=code`; the number waits in the session, app/.server/phone-code.ts)
 *   against `user/mobile/send` and `user/mobile/verify`; a number linked to another account is the
 *   API's 409, said on the number field. The switch "Order updates by SMS" (`sms_order_updates`) is
 *   disabled until the mobile is verified; with JavaScript it saves as it is flipped.
 * - An account without a name (made by phone sign-in) sees "Add your name" (app/components/add-name-prompt.tsx).
 * - The upload dialog is driven by the address: Edit is a link to `?edit-avatar=1`. Without
 *   JavaScript that page shows a plain multipart form; with JavaScript the same form opens as a modal
 *   with a preview. The BFF refuses files over the upload cap (`UPLOAD_MAX_BYTES`, 5 MB by default) before calling the API (which checks again, and
 *   checks that the bytes are an image). Success stores the new avatar url in the session's user
 *   summary, so the header and menus show it on the very next render.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { data, Form, Link, redirect, useNavigate, useNavigation } from 'react-router'
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
import { ProfileSchema, profileSchemaFor } from '../../lib/schemas/account.ts'
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
import { handleNamePrompt, showsNamePrompt } from '../../.server/name-prompt.ts'
import { codeStepOf, runCodeStep } from '../../.server/phone-code.ts'
import { AddNamePrompt } from '../../components/add-name-prompt.tsx'
import { MobileNumberField, SmsCodeForm, type CodeStep } from '../../components/phone-code.tsx'
import {
  ADD_NAME_INTENT,
  formatIndianMobile,
  PhoneNumberSchema,
  RESEND_INTENT,
  SEND_INTENT,
  VERIFY_INTENT,
} from '../../lib/schemas/phone.ts'

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

/** The query of the mobile verification's steps: `number` (step 1) or `code` (step 2). */
const MOBILE_PARAM = 'mobile'
const INTENT_SMS = 'sms' as const
const SMS_FIELD = 'sms_order_updates'

/** The profile's URL at a step of the mobile verification. */
const mobileStepPath = (step: 'number' | 'code') => `${PROFILE_PATH}?${MOBILE_PARAM}=${step}`

export async function loader({ context, url }: Route.LoaderArgs) {
  // Fresh from the API (a change made in another session shows), header summary kept in step.
  const fresh = await requireFreshUser(context, url)
  const session = getSession(context)
  const { name, email, mobile, avatar } = fresh
  const step = url.searchParams.get(MOBILE_PARAM)
  const code = step === 'code' ? codeStepOf(session, 'mobileLink') : null
  // Step 2 without a code sent (an old link, a code already used): step 1.
  if (step === 'code' && !code) throw redirect(mobileStepPath('number'))
  return {
    user: { name, email, mobile: mobile ?? '', avatar, mobileVerified: fresh.mobile_verified, smsOrderUpdates: fresh.sms_order_updates },
    isEditingAvatar: url.searchParams.get(EDIT_AVATAR_PARAM) === '1',
    mobileStep: code ? ('code' as const) : step === 'number' ? ('number' as const) : null,
    code,
    // Step 1 is filled with the number last sent a code, else the account's.
    numberToVerify: session.pendingCode('mobileLink')?.mobile ?? mobile ?? '',
    namePrompt: showsNamePrompt(session, fresh),
  }
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

  const intent = formData.get('intent')
  const named = await handleNamePrompt(api, session, formData, PROFILE_PATH)
  if (named) return named

  if (intent === SEND_INTENT || intent === RESEND_INTENT || intent === VERIFY_INTENT) {
    return runCodeStep(session, formData, {
      purpose: 'mobileLink',
      send: (mobile) => userApi.sendMobileLinkCode(api, session, { mobile }),
      verify: (mobile, otp) => userApi.verifyMobileLinkCode(api, session, { mobile, otp }),
      numberStep: mobileStepPath('number'),
      codeStep: mobileStepPath('code'),
      // The loader's fresh user-details brings the session's summary in step with the new number.
      onVerified: ({ message }) =>
        redirectWithToast(session, PROFILE_PATH, { type: 'success', message: message || 'Mobile number verified' }),
    })
  }

  if (intent === INTENT_SMS) {
    const fresh = await userApi.userDetails(api, session)
    const on = formData.get(SMS_FIELD) === 'on'
    const result = fresh.ok ? await userApi.setSmsOrderUpdates(api, session, fresh.data, on) : fresh
    if (!result.ok) {
      const message = failureMessage(result)
      return data({ intent: INTENT_SMS, result: undefined, toast: { type: 'error' as const, message } }, failureInit(result))
    }
    const message = on ? 'Order updates by SMS are on' : 'Order updates by SMS are off'
    return redirectWithToast(session, PROFILE_PATH, { type: 'success', message })
  }

  if (intent === INTENT_AVATAR) {
    const file = formData.get('avatar')
    if (!(file instanceof File) || file.size === 0) return avatarFailure({ status: 400, message: CHOOSE_IMAGE_MESSAGE })
    if (file.size > env.uploadMaxBytes) return avatarFailure({ status: 413, message: imageTooLargeMessage(env.uploadMaxBytes) })
    const result = await userApi.uploadAvatar(api, session, file)
    if (!result.ok) return avatarFailure(result)
    session.setUser({ ...(session.user ?? user), avatar: result.data.avatar })
    return redirectWithToast(session, PROFILE_PATH, { type: 'success', message: result.message || 'Avatar updated' })
  }

  const extra = { intent: INTENT_PROFILE, avatarError: null }
  const submission = parseWithZod(formData, { schema: profileSchemaFor(user) })
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
  const intent = actionData?.intent
  return (
    <section className="p-4 md:p-6">
      <h1 className="sr-only">My Profile</h1>
      {loaderData.namePrompt ? <AddNamePrompt action={PROFILE_PATH} reply={intent === ADD_NAME_INTENT ? actionData : undefined} /> : null}
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
      <MobileSection
        user={user}
        step={loaderData.mobileStep}
        code={loaderData.code}
        numberToVerify={loaderData.numberToVerify}
        reply={actionData}
      />
      {/* Remounted when the saved values change, so the inputs show what the API stored. */}
      <ProfileForm
        key={`${user.name}\n${user.email}\n${user.mobile}`}
        user={user}
        reply={intent === INTENT_PROFILE ? actionData : undefined}
      />
    </section>
  )
}

function ProfileForm({ user, reply }: { user: ProfileUser; reply: FormReplyData }) {
  const isPending = useIsPending()
  const [form, fields] = useSchemaForm(PROFILE_FORM_ID, profileSchemaFor(user), reply?.result, {
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
        labelProps={{ children: user.email === '' ? 'Email (optional)' : 'Email' }}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: 'Enter your email' }}
        errors={fields.email.errors}
      />
      {user.mobileVerified ? (
        // A verified number changes only by code (the Mobile number section above); sent unchanged.
        <input type="hidden" name="mobile" value={user.mobile} />
      ) : (
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
      )}
      <FormAlert form={form} reply={reply} />
      <SubmitButton isPending={isPending} className="sm:w-auto sm:min-w-40">
        {isPending ? 'Saving…' : 'Submit'}
      </SubmitButton>
    </Form>
  )
}

type ProfileReply = Route.ComponentProps['actionData']

/**
 * The account's mobile number: the number and whether it is verified, the verification's two steps
 * (`step`), and the "Order updates by SMS" switch.
 */
function MobileSection({
  user,
  step,
  code,
  numberToVerify,
  reply,
}: {
  user: ProfileUser
  step: 'number' | 'code' | null
  code: CodeStep | null
  numberToVerify: string
  reply: ProfileReply
}) {
  const intent = reply?.intent
  return (
    <section aria-labelledby="mobile-title" data-card="mobile" className="mt-6 grid max-w-lg gap-3 rounded-xl border border-slate-200 p-4">
      <h2 id="mobile-title" className="text-base font-semibold text-slate-900">
        Mobile number
      </h2>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {user.mobile ? (
          <span data-testid="profile-mobile" className="font-medium break-all text-slate-900">
            {formatIndianMobile(user.mobile)}
          </span>
        ) : (
          <span className="text-sm text-slate-600">No mobile number yet</span>
        )}
        {user.mobile ? (
          <span
            className={
              'rounded-full px-2 py-0.5 text-xs font-semibold ' +
              (user.mobileVerified ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900')
            }
          >
            {user.mobileVerified ? 'Verified' : 'Not verified'}
          </span>
        ) : null}
        {step === null ? (
          <Link
            to={`?${MOBILE_PARAM}=number`}
            preventScrollReset
            className={buttonClassName({ variant: user.mobileVerified ? 'secondary' : 'primary', size: 'sm' })}
          >
            {user.mobileVerified ? 'Change' : user.mobile ? 'Verify' : 'Add mobile number'}
          </Link>
        ) : null}
      </div>
      {step === 'number' ? <MobileNumberStep numberToVerify={numberToVerify} reply={intent === SEND_INTENT ? reply : undefined} /> : null}
      {step === 'code' && code ? (
        <div className="rounded-lg bg-slate-50 p-4">
          <SmsCodeForm
            id="mobile-code"
            action={`${PROFILE_PATH}?${MOBILE_PARAM}=code`}
            step={code}
            changeHref={`${PROFILE_PATH}?${MOBILE_PARAM}=number`}
            reply={intent === VERIFY_INTENT ? reply : undefined}
            resendReply={intent === RESEND_INTENT ? reply : undefined}
          />
        </div>
      ) : null}
      <SmsSwitch user={user} reply={intent === INTENT_SMS ? reply : undefined} />
    </section>
  )
}

/** Step 1 of the verification: the number to send a code to (409: linked to another account). */
function MobileNumberStep({ numberToVerify, reply }: { numberToVerify: string; reply: FormReplyData }) {
  const action = `${PROFILE_PATH}?${MOBILE_PARAM}=number`
  const isPending = useIsPending({ formAction: action })
  const [form, fields] = useSchemaForm('mobile-number', PhoneNumberSchema, reply?.result, { mobile: numberToVerify })
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-3 rounded-lg bg-slate-50 p-4">
      <input type="hidden" name="intent" value={SEND_INTENT} />
      <p className="text-sm text-slate-600">We will send a 6-digit code by SMS to this number.</p>
      <MobileNumberField field={fields.mobile} autoFocus />
      <FormAlert form={form} reply={reply} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isPending={isPending}>
          {isPending ? 'Sending…' : 'Send OTP'}
        </Button>
        <Link to={PROFILE_PATH} preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
          Cancel
        </Link>
      </div>
    </Form>
  )
}

/**
 * "Order updates by SMS": a switch, disabled until the mobile is verified. With JavaScript flipping
 * it saves; without, a "Save" button beside it does.
 */
function SmsSwitch({ user, reply }: { user: ProfileUser; reply: FormReplyData }) {
  const isHydrated = useHydrated()
  const formRef = useRef<HTMLFormElement>(null)
  const disabled = !user.mobileVerified
  return (
    <Form method="post" action={PROFILE_PATH} ref={formRef} className="grid gap-1 border-t border-slate-200 pt-3">
      <input type="hidden" name="intent" value={INTENT_SMS} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label
          htmlFor="sms-order-updates"
          className={'flex min-h-10 items-center gap-3 ' + (disabled ? 'text-slate-500' : 'text-slate-800')}
        >
          <input
            id="sms-order-updates"
            type="checkbox"
            role="switch"
            name={SMS_FIELD}
            // Remounted when the saved value changes (a failed save leaves what is stored).
            key={String(user.smsOrderUpdates)}
            defaultChecked={user.smsOrderUpdates}
            disabled={disabled}
            aria-describedby={disabled ? 'sms-order-updates-hint' : undefined}
            onChange={() => formRef.current?.requestSubmit()}
            className="size-5 accent-accent"
          />
          <span className="text-sm font-medium">Order updates by SMS</span>
        </label>
        {!isHydrated && !disabled ? (
          <Button type="submit" size="sm" variant="secondary">
            Save
          </Button>
        ) : null}
      </div>
      {disabled ? (
        <p id="sms-order-updates-hint" className="text-xs text-slate-600">
          Verify your mobile number to get order updates by SMS.
        </p>
      ) : null}
      <ErrorList errors={reply?.toast?.type === 'error' ? [reply.toast.message] : null} role="alert" />
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
