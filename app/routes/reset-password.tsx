/**
 * /reset-password (docs/product.md, "Password recovery": email carried over, newPassword,
 * confirmPassword; redirect to / unless the code verification result was passed along; success goes
 * to /login; docs/product.md, "Validation rules": all required, the mismatch message "New password
 * and confirm password must be same. " verbatim).
 *
 * The email and the reset token come from the session's recovery state (set by /verification-otp);
 * the email is shown read-only, the token never leaves the server. Success ends the recovery and
 * lands on /login with the API's message.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/reset-password'
import { failedFormReply, invalidFormReply, readForm } from '../.server/form.ts'
import * as userApi from '../.server/api/user.ts'
import { getSession } from '../.server/context.ts'
import { clientIp } from '../.server/request.ts'
import type { Recovery } from '../.server/session.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { FormAlert, FormCard, PasswordField, SubmitButton, useIsPending } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { useSchemaForm } from '../components/use-schema-form.ts'
import { inputClassName } from '../components/ui/input.tsx'
import { RESET_PASSWORD_MISMATCH_MESSAGE, ResetPasswordSchema } from '../lib/schemas/account.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Reset Password | ${SHOP_NAME}` },
  { name: 'description', content: 'Choose a new password for your account.' },
  { name: 'robots', content: 'noindex' },
]

/** Passwords are never echoed back into the page (OWASP ASVS 8.3). */
const SECRET_FIELDS = ['newPassword', 'confirmPassword']

/** The verified recovery (email and reset token), or a thrown redirect to / (docs/product.md, "Password recovery"). */
function verifiedRecovery(context: Route.LoaderArgs['context']): Required<Recovery> {
  const recovery = getSession(context).recovery
  if (!recovery?.verified || !recovery.resetToken) throw redirect('/')
  return { email: recovery.email, verified: true, resetToken: recovery.resetToken }
}

export function loader({ context }: Route.LoaderArgs) {
  return { email: verifiedRecovery(context).email }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  const recovery = verifiedRecovery(context)
  const session = getSession(context)
  const submission = parseWithZod(await readForm(request), { schema: ResetPasswordSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { hideFields: SECRET_FIELDS })

  const result = await userApi.resetPassword(
    api,
    { email: recovery.email, resetToken: recovery.resetToken, ...submission.value },
    { clientIp: clientIp(request) },
  )
  if (!result.ok) {
    // The API's own mismatch message (docs/product.md, "Validation rules") or a stricter password
    // rule goes under its field.
    const mismatch = result.message === RESET_PASSWORD_MISMATCH_MESSAGE ? { confirmPassword: [result.message] } : undefined
    return failedFormReply(submission, result, { fields: SECRET_FIELDS, fieldErrors: mismatch, hideFields: SECRET_FIELDS })
  }
  session.clearRecovery()
  return redirectWithToast(session, '/login', { type: 'success', message: result.message || 'Password updated successfully' })
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useSchemaForm('reset-password', ResetPasswordSchema, actionData?.result)

  return (
    <FormCard title="Enter Your Password">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <div>
          <label htmlFor="reset-email" className="mb-1 block text-sm font-medium text-slate-700">
            Email
          </label>
          {/* Read-only and unnamed: the server uses the session's email. It is here for the shopper and
              for password managers, which file the new password under this username. */}
          <input
            id="reset-email"
            type="email"
            value={loaderData.email}
            readOnly
            autoComplete="username"
            className={`${inputClassName()} h-12 bg-slate-100 text-slate-700`}
          />
        </div>
        <PasswordField
          labelProps={{ children: 'New Password' }}
          inputProps={{
            ...getInputProps(fields.newPassword, { type: 'password' }),
            autoComplete: 'new-password',
            autoFocus: true,
            placeholder: 'Enter your new password',
          }}
          errors={fields.newPassword.errors}
        />
        <PasswordField
          labelProps={{ children: 'Confirm Password' }}
          inputProps={{
            ...getInputProps(fields.confirmPassword, { type: 'password' }),
            autoComplete: 'new-password',
            placeholder: 'Enter your confirm password',
          }}
          errors={fields.confirmPassword.errors}
        />
        <FormAlert form={form} reply={actionData} />
        <SubmitButton isPending={isPending}>{isPending ? 'Changing…' : 'Change Password'}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Code expired?{' '}
        <Link to="/forgot-password" className="font-semibold text-accent hover:underline">
          Start again
        </Link>
      </p>
    </FormCard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
