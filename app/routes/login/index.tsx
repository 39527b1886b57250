/**
 * /login (docs/product.md, "Auth screens"; rules: docs/product.md, "Validation rules"; login success:
 * docs/product.md, "States and transitions"; messages: docs/product.md, "Toasts"). "Continue with
 * mobile number" first (phone sign-in, /login/phone, keeping `redirectTo`;
 * docs/decisions/0054-phone-sign-in-pages.md), then email and password
 * with a show/hide toggle, links to /forgot-password and /register. The BFF posts to the API, keeps
 * the tokens in the cookie session, loads the user's details for the header and goes to `redirectTo`
 * (same-site paths only) or `/`.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { Form, Link } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/index'
import { failedFormReply, invalidFormReply, readForm } from '../../.server/form.ts'
import * as userApi from '../../.server/api/user.ts'
import { requireAnonymous, signIn } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { clientIp, safeRedirect } from '../../.server/request.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { Field, FormAlert, FormCard, PasswordField, SubmitButton, useIsPending } from '../../components/forms.tsx'
import { buttonClassName } from '../../components/ui/button.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { originFromMatches, pageMeta } from '../../lib/seo.ts'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { LoginSchema } from '../../lib/schemas/auth.ts'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    origin: originFromMatches(matches),
    path: '/login',
    title: `Login | ${SHOP_NAME}`,
    description: `Sign in to ${SHOP_NAME} to order groceries delivered in 10 minutes, follow your orders and keep your addresses.`,
    siteName: SHOP_NAME,
  })

/** The password is never echoed back into the page (OWASP ASVS 8.3: no credentials in responses). */
const SECRET_FIELDS = ['password']

/** The note above the form right after registering (docs/product.md, "States and transitions"). */
const ACCOUNT_CREATED = 'Account created: sign in'

/**
 * `redirectTo`: where to go after signing in ('' = no explicit target; the action then falls back to
 * '/'). `registeredEmail`: the email an account was just created with (once, right after /register),
 * filled in with the "Account created" note; else null.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAnonymous(context)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  return { redirectTo, registeredEmail: getSession(context).takeRegisteredEmail() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  requireAnonymous(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: LoginSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { hideFields: SECRET_FIELDS })

  const login = await userApi.login(api, submission.value, { clientIp: clientIp(request) })
  if (!login.ok) return failedFormReply(submission, login, { hideFields: SECRET_FIELDS })
  const signedIn = await signIn(api, session, login.data)
  if (!signedIn.ok) return failedFormReply(submission, signedIn, { hideFields: SECRET_FIELDS })

  const redirectTo = safeRedirect(formData.get('redirectTo') || new URL(request.url).searchParams.get('redirectTo'))
  return redirectWithToast(session, redirectTo, { type: 'success', message: login.message })
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const isHydrated = useHydrated()
  const isPending = useIsPending()
  const lastResult = actionData?.result
  const registeredEmail = loaderData.registeredEmail
  const [form, fields] = useSchemaForm('login', LoginSchema, lastResult, registeredEmail ? { email: registeredEmail } : undefined)

  // docs/product.md, "Validation rules": submit stays disabled until both fields are non-empty. Only
  // with JavaScript; without it the button is always enabled and the server answers the same
  // messages. Read from the form itself, so values typed before hydration, autofill and the cleared
  // password all count.
  const formRef = useRef<HTMLFormElement>(null)
  const [isFilled, setFilled] = useState(false)
  const checkFilled = () => {
    const formData = formRef.current ? new FormData(formRef.current) : null
    setFilled(String(formData?.get('email') ?? '').trim() !== '' && String(formData?.get('password') ?? '') !== '')
  }

  // After a refused sign-in keep the email and clear the password (docs/product.md, "States and
  // transitions" clears the whole form on success only). Without JavaScript the server already
  // rendered it empty. The DOM is cleared directly: Conform's `form.update` would re-validate and
  // drop the server's form error.
  useEffect(() => {
    const password = formRef.current?.elements.namedItem('password')
    if (lastResult?.status === 'error' && password instanceof HTMLInputElement) password.value = ''
    checkFilled()
  }, [lastResult])

  return (
    <FormCard title="Login">
      <Link
        to={loaderData.redirectTo ? `/login/phone?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/login/phone'}
        className={buttonClassName({ variant: 'brand', size: 'lg', fullWidth: true })}
      >
        Continue with mobile number
      </Link>
      <p className="my-5 flex items-center gap-3 text-sm text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or sign in with email
        <span className="h-px flex-1 bg-slate-200" />
      </p>
      <Form method="post" {...getFormProps(form)} ref={formRef} onInput={checkFilled} className="space-y-5">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {registeredEmail && !lastResult ? (
          <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm font-medium break-words text-emerald-800">
            {ACCOUNT_CREATED}
          </p>
        ) : null}
        <Field
          labelProps={{ children: 'Email' }}
          inputProps={{
            ...getInputProps(fields.email, { type: 'email' }),
            autoComplete: 'email',
            // Right after registering the email is filled in: the password is what is left to type.
            autoFocus: !registeredEmail,
            placeholder: 'Enter your email',
          }}
          errors={fields.email.errors}
        />
        <div>
          <PasswordField
            labelProps={{ children: 'Password' }}
            inputProps={{
              ...getInputProps(fields.password, { type: 'password' }),
              autoComplete: 'current-password',
              autoFocus: Boolean(registeredEmail),
              placeholder: 'Enter your password',
            }}
            errors={fields.password.errors}
          />
          <div className="mt-2 text-right">
            <Link to="/forgot-password" className="text-sm font-medium text-slate-700 hover:text-accent hover:underline">
              Forgot password ?
            </Link>
          </div>
        </div>
        <FormAlert form={form} reply={actionData} />
        <SubmitButton isPending={isPending} disabled={isHydrated && !isFilled}>
          {isPending ? 'Logging in…' : 'Login'}
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Don&apos;t have account?{' '}
        <Link
          to={loaderData.redirectTo ? `/register?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/register'}
          className="font-semibold text-accent hover:underline"
        >
          Register
        </Link>
      </p>
    </FormCard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
