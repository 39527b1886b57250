/**
 * /login/phone: sign in with a mobile number and a 6-digit code by SMS
 * (docs/decisions/0054-phone-sign-in-pages.md; the API: docs/decisions/0052-phone-sign-in-and-one-time-codes.md).
 *
 * - Step 1 (`/login/phone`): the 10-digit number (+91 shown) → `user/otp/send` → step 2.
 * - Step 2 (`/login/phone?step=code`): the code for the number the session holds (never in the URL),
 *   "Change" back to step 1, "Resend OTP" (app/components/phone-code.tsx). A code the API accepts
 *   signs the session in as /login does (tokens, user details, the guest cart merged, the location
 *   synced: app/.server/auth.ts `signIn`), then `redirectTo` (same-site paths only) or `/` with a
 *   toast. A new number gets an account at once; its name is asked later, never here.
 * - Admins keep email and password: the API's 403 "Admins sign in with email and password" is shown.
 */
import { getFormProps } from '@conform-to/react'
import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/phone'
import { apiOf } from '../../.server/api-context.ts'
import * as userApi from '../../.server/api/user.ts'
import { requireAnonymous, signIn } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { readForm } from '../../.server/form.ts'
import { codeStepOf, runCodeStep } from '../../.server/phone-code.ts'
import { clientIp, safeRedirect } from '../../.server/request.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { FormAlert, FormCard, SubmitButton, useIsPending } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { MobileNumberField, SmsCodeForm } from '../../components/phone-code.tsx'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { PhoneNumberSchema, RESEND_INTENT, SEND_INTENT, VERIFY_INTENT } from '../../lib/schemas/phone.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Login with mobile number | ${SHOP_NAME}` },
  { name: 'description', content: `Sign in to ${SHOP_NAME} with your mobile number and a one-time code by SMS.` },
  { name: 'robots', content: 'noindex' },
]

const PATH = '/login/phone'
const STEP_PARAM = 'step'
const CODE_STEP = 'code'

/** The page's URL for a step, keeping `redirectTo` ('' = none). */
function stepPath(step: 'number' | 'code', redirectTo: string): string {
  const query = new URLSearchParams()
  if (step === 'code') query.set(STEP_PARAM, CODE_STEP)
  if (redirectTo) query.set('redirectTo', redirectTo)
  const search = query.toString()
  return search ? `${PATH}?${search}` : PATH
}

/**
 * `redirectTo` (same-site path or ''), the step shown and, for step 2, where the code went and the
 * seconds until "Resend OTP"; for step 1 the number last used (to correct after "Change").
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  requireAnonymous(context)
  const session = getSession(context)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const code = url.searchParams.get(STEP_PARAM) === CODE_STEP ? codeStepOf(session, 'phoneLogin') : null
  // Step 2 without a code sent (an old bookmark, a session that ended): step 1.
  if (url.searchParams.get(STEP_PARAM) === CODE_STEP && !code) throw redirect(stepPath('number', redirectTo))
  return { redirectTo, code, lastMobile: session.pendingCode('phoneLogin')?.mobile ?? '' }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireAnonymous(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const redirectTo = safeRedirect(formData.get('redirectTo') || url.searchParams.get('redirectTo'), '')
  const ip = { clientIp: clientIp(request) }
  return runCodeStep(session, formData, {
    purpose: 'phoneLogin',
    send: (mobile) => userApi.sendSignInCode(api, { mobile }, ip),
    verify: (mobile, otp) => userApi.verifySignInCode(api, { mobile, otp }, ip),
    numberStep: stepPath('number', redirectTo),
    codeStep: stepPath('code', redirectTo),
    onVerified: async ({ data, message }, refuse) => {
      const signedIn = await signIn(api, session, data.tokens)
      if (!signedIn.ok) return refuse(signedIn)
      return redirectWithToast(session, redirectTo || '/', { type: 'success', message: message || 'Login successfully' })
    },
  })
}

export default function PhoneLogin({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, code } = loaderData
  return (
    <FormCard title={code ? 'Enter OTP' : 'Login with mobile number'}>
      {code ? (
        <SmsCodeForm
          id="phone-login-code"
          action={stepPath('code', redirectTo)}
          step={code}
          changeHref={stepPath('number', redirectTo)}
          reply={actionData?.intent === VERIFY_INTENT ? actionData : undefined}
          resendReply={actionData?.intent === RESEND_INTENT ? actionData : undefined}
          submitLabel="Verify and sign in"
        >
          <input type="hidden" name="redirectTo" value={redirectTo} />
        </SmsCodeForm>
      ) : (
        <NumberStep
          redirectTo={redirectTo}
          lastMobile={loaderData.lastMobile}
          reply={actionData?.intent === SEND_INTENT ? actionData : undefined}
        />
      )}
      <p className="mt-6 text-center text-sm text-slate-700">
        <Link
          to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'}
          className="font-semibold text-accent hover:underline"
        >
          Sign in with email instead
        </Link>
      </p>
    </FormCard>
  )
}

/** Step 1: the number form. */
function NumberStep({
  redirectTo,
  lastMobile,
  reply,
}: {
  redirectTo: string
  lastMobile: string
  reply: Route.ComponentProps['actionData'] | undefined
}) {
  const action = stepPath('number', redirectTo)
  const isPending = useIsPending({ formAction: action })
  const [form, fields] = useSchemaForm('phone-login', PhoneNumberSchema, reply?.result, lastMobile ? { mobile: lastMobile } : undefined)
  return (
    <>
      <p className="-mt-3 mb-5 text-sm text-slate-600">We will send a 6-digit code by SMS to this number.</p>
      <Form method="post" action={action} {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value={SEND_INTENT} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <MobileNumberField field={fields.mobile} autoFocus />
        <FormAlert form={form} reply={reply} />
        <SubmitButton isPending={isPending}>{isPending ? 'Sending…' : 'Continue'}</SubmitButton>
      </Form>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
