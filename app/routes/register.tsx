/**
 * /register (docs/product.md, "Auth screens"; rules: docs/product.md, "Validation rules"; success signs
 * the new account in and goes to `redirectTo` or `/`: docs/product.md, "States and transitions";
 * messages: docs/product.md, "Toasts"). Name,
 * email, password and confirmPassword, both passwords with show/hide toggles; a mismatch is "password
 * and confirm password must be same".
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import type { Route } from './+types/register'
import { failedFormReply, invalidFormReply, readForm } from '../.server/form.ts'
import * as userApi from '../.server/api/user.ts'
import { requireAnonymous, signIn } from '../.server/auth.ts'
import { getSession } from '../.server/context.ts'
import { clientIp, safeRedirect } from '../.server/request.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { Field, FormAlert, FormCard, PasswordField, SubmitButton, useIsPending } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { originFromMatches, pageMeta } from '../lib/seo.ts'
import { useSchemaForm } from '../components/use-schema-form.ts'
import { RegisterSchema } from '../lib/schemas/auth.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    origin: originFromMatches(matches),
    path: '/register',
    title: `Register | ${SHOP_NAME}`,
    description: `Create your ${SHOP_NAME} account and get fruits, vegetables, dairy and staples delivered in 10 minutes.`,
    siteName: SHOP_NAME,
  })

/** Fields whose values never go back into the page (OWASP ASVS 8.3: no credentials in responses). */
const SECRET_FIELDS = ['password', 'confirmPassword']
const FIELD_NAMES = ['name', 'email', 'password', 'confirmPassword']

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAnonymous(context)
  // Where to land once registered (and signed in): a shopper sent here from a guarded page ends up there.
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  return { redirectTo }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  requireAnonymous(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: RegisterSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { hideFields: SECRET_FIELDS })

  const result = await userApi.register(api, submission.value, { clientIp: clientIp(request) })
  if (!result.ok) {
    // A field issue from the API (say, a stricter password rule) goes under its field.
    return failedFormReply(submission, result, { fields: FIELD_NAMES, hideFields: SECRET_FIELDS })
  }

  // Registering signs the new account in (docs/product.md, "States and transitions": register
  // success): the same login call and sign-in step as /login, so the guest cart is merged and a
  // shopper who came from the cart's "Proceed" lands on /checkout with it.
  const redirectTo = safeRedirect(formData.get('redirectTo'), '')
  const login = await userApi.login(
    api,
    { email: submission.value.email, password: submission.value.password },
    { clientIp: clientIp(request) },
  )
  const signedIn = login.ok ? await signIn(api, session, login.data) : login
  if (signedIn.ok) return redirectWithToast(session, redirectTo || '/', { type: 'success', message: result.message })

  // The account exists but the sign-in was refused (say, the login rate limit): on to /login with the
  // email filled in and the destination kept, as before registering signed in.
  const loginPath = redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'
  session.flashRegisteredEmail(submission.value.email)
  return redirectWithToast(session, loginPath, { type: 'success', message: result.message })
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const isPending = useIsPending()
  const [form, fields] = useSchemaForm('register', RegisterSchema, actionData?.result)

  return (
    <FormCard title="Register">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field
          labelProps={{ children: 'Name' }}
          inputProps={{
            ...getInputProps(fields.name, { type: 'text' }),
            autoComplete: 'name',
            autoFocus: true,
            placeholder: 'Enter your name',
          }}
          errors={fields.name.errors}
        />
        <Field
          labelProps={{ children: 'Email' }}
          inputProps={{
            ...getInputProps(fields.email, { type: 'email' }),
            autoComplete: 'email',
            placeholder: 'Enter your email',
          }}
          errors={fields.email.errors}
        />
        <PasswordField
          labelProps={{ children: 'Password' }}
          inputProps={{
            ...getInputProps(fields.password, { type: 'password' }),
            autoComplete: 'new-password',
            placeholder: 'Enter your password',
          }}
          errors={fields.password.errors}
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
        <SubmitButton isPending={isPending}>{isPending ? 'Registering…' : 'Register'}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Already have account?{' '}
        <Link
          to={loaderData.redirectTo ? `/login?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/login'}
          className="font-semibold text-accent hover:underline"
        >
          Login
        </Link>
      </p>
    </FormCard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
