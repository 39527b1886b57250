/**
 * /verification-otp (docs/product.md, "Password recovery": six single-character boxes, focus moves on
 * entry, redirect to /forgot-password when no email was passed along, a verified code goes to
 * /reset-password with the result and the email; docs/product.md, "Validation rules": all six
 * filled, one character each).
 *
 * The email comes from the session's recovery state; the verify result (the API's single-use reset
 * token) goes back into it, server-side only. A refused code shows the API's message and clears the
 * boxes. "Resend Otp" asks for a new code for the same email.
 */
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/verification-otp'
import { failureInit, failureMessage } from '../.server/failure.ts'
import { failedFormReply, invalidFormReply, readForm } from '../.server/form.ts'
import * as userApi from '../.server/api/user.ts'
import { getSession } from '../.server/context.ts'
import { clientIp } from '../.server/request.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { FormAlert, FormCard, SubmitButton, useFormErrors, useIsPending } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { OtpInput } from '../components/otp-input.tsx'
import { useSchemaForm } from '../components/use-schema-form.ts'
import { OTP_FIELD_NAMES, OTP_LENGTH, OtpSchema } from '../lib/schemas/account.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Verify Code | ${SHOP_NAME}` },
  { name: 'description', content: 'Enter the 6-digit code we emailed you to reset your password.' },
  { name: 'robots', content: 'noindex' },
]

const INTENT_RESEND = 'resend'
/** The boxes never come back filled from the server: a refused code is typed again. */
const HIDDEN_FIELDS = [...OTP_FIELD_NAMES]

/** The recovery's email, or a thrown redirect to /forgot-password when none was carried along. */
function recoveryEmail(context: Route.LoaderArgs['context']): string {
  const email = getSession(context).recovery?.email
  if (!email) throw redirect('/forgot-password')
  return email
}

export function loader({ context }: Route.LoaderArgs) {
  return { email: recoveryEmail(context) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  const email = recoveryEmail(context)
  const session = getSession(context)
  const formData = await readForm(request)

  const submission = parseWithZod(formData, { schema: OtpSchema })
  if (formData.get('intent') === INTENT_RESEND) {
    const result = await userApi.forgotPassword(api, { email }, { clientIp: clientIp(request) })
    // The code form is not what failed: its state stays, the toast says why.
    if (!result.ok)
      return data({ result: undefined, toast: { type: 'error' as const, message: failureMessage(result) } }, failureInit(result))
    session.setRecovery({ email, verified: false })
    // A new code: the last one's "Invalid OTP" no longer applies, so the code form starts afresh.
    const message = result.message || 'A new code is on its way'
    return { result: submission.reply({ resetForm: true }), toast: { type: 'success' as const, message } }
  }

  if (submission.status !== 'success') return invalidFormReply(submission, { hideFields: HIDDEN_FIELDS })
  const result = await userApi.verifyForgotPasswordOtp(api, { email, otp: submission.value.otp }, { clientIp: clientIp(request) })
  if (!result.ok) return failedFormReply(submission, result, { hideFields: HIDDEN_FIELDS })
  session.setRecovery({ email, verified: true, resetToken: result.data.resetToken })
  return redirectWithToast(session, '/reset-password', { type: 'success', message: result.message || 'Code verified' })
}

export default function VerificationOtp({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const isSubmitting = useIsPending()
  const isResending = isSubmitting && navigation.formData?.get('intent') === INTENT_RESEND
  const isVerifying = isSubmitting && !isResending
  // Checked on submit only: a half-typed code is not an error yet.
  const [form] = useSchemaForm('verification-otp', OtpSchema, actionData?.result, undefined, {
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onSubmit',
  })
  const hasErrors = Boolean(useFormErrors(form, actionData)?.length)

  return (
    <FormCard title="Enter OTP">
      <p className="-mt-3 mb-5 text-sm text-slate-600">
        We sent a {OTP_LENGTH}-digit code to <strong className="font-semibold break-all text-slate-900">{loaderData.email}</strong>. It is
        valid for 10 minutes.{' '}
        <Link to="/forgot-password" className="font-medium text-accent hover:underline">
          Change email
        </Link>
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <div>
          <label htmlFor="otp" className="mb-2 block text-sm font-medium text-slate-700">
            Enter your OTP
          </label>
          <OtpInput id="otp" autoFocus isInvalid={hasErrors} describedBy={hasErrors ? form.errorId : undefined} clearSignal={actionData} />
        </div>
        <FormAlert form={form} reply={actionData} />
        <SubmitButton isPending={isVerifying} disabled={isResending}>
          {isVerifying ? 'Verifying…' : 'Verify OTP'}
        </SubmitButton>
      </Form>
      {/* A separate form: resending must not post, or be blocked by, half-typed boxes. */}
      <Form method="post" className="mt-4 text-center text-sm text-slate-700">
        Didn&apos;t get the code?{' '}
        <button
          type="submit"
          name="intent"
          value={INTENT_RESEND}
          disabled={isSubmitting}
          className="min-h-10 font-semibold text-accent hover:underline disabled:opacity-50"
        >
          {isResending ? 'Sending…' : 'Resend Otp'}
        </button>
      </Form>
    </FormCard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
