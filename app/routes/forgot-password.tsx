/**
 * /forgot-password (docs/product.md, "Password recovery": email and a Send Otp button, success goes
 * to /verification-otp with the email; docs/product.md, "Validation rules": email required). The
 * email is carried in the server session's recovery state (app/.server/session.ts `Recovery`), never
 * in the URL. The API answers alike whether or not the email has an account, so this page does too; a
 * rate limit (429) names the wait.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import type { Route } from './+types/forgot-password'
import { failedFormReply, invalidFormReply, readForm } from '../.server/form.ts'
import * as userApi from '../.server/api/user.ts'
import { getSession } from '../.server/context.ts'
import { clientIp } from '../.server/request.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { Field, FormAlert, FormCard, SubmitButton, useIsPending } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { useSchemaForm } from '../components/use-schema-form.ts'
import { ForgotPasswordSchema } from '../lib/schemas/account.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Forgot Password | ${SHOP_NAME}` },
  { name: 'description', content: 'Forgot your password? Get a one-time code by email and choose a new one.' },
  { name: 'robots', content: 'noindex' },
]

/** The email of a recovery under way, so "Resend" or a way back from the code page keeps it. */
export function loader({ context }: Route.LoaderArgs) {
  return { email: getSession(context).recovery?.email ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const submission = parseWithZod(await readForm(request), { schema: ForgotPasswordSchema })
  if (submission.status !== 'success') return invalidFormReply(submission)

  const { email } = submission.value
  const result = await userApi.forgotPassword(api, { email }, { clientIp: clientIp(request) })
  if (!result.ok) return failedFormReply(submission, result)
  // A new code replaces any earlier one (the API keeps one live code per account), so a verified
  // state from before is dropped too.
  session.setRecovery({ email, verified: false })
  return redirectWithToast(session, '/verification-otp', { type: 'success', message: result.message || 'Check your email for the code' })
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useSchemaForm('forgot-password', ForgotPasswordSchema, actionData?.result, { email: loaderData.email })

  return (
    <FormCard title="Forgot Password">
      <p className="-mt-3 mb-5 text-sm text-slate-600">Enter the email of your account and we will send you a 6-digit code.</p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <Field
          labelProps={{ children: 'Email' }}
          inputProps={{
            ...getInputProps(fields.email, { type: 'email' }),
            autoComplete: 'email',
            autoFocus: true,
            placeholder: 'Enter your email',
          }}
          errors={fields.email.errors}
        />
        <FormAlert form={form} reply={actionData} />
        <SubmitButton isPending={isPending}>{isPending ? 'Sending…' : 'Send Otp'}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Already have account?{' '}
        <Link to="/login" className="font-semibold text-accent hover:underline">
          Login
        </Link>
      </p>
    </FormCard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
