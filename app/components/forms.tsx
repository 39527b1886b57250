/**
 * Small form pieces shared by every server-rendered form (sign-in pages now, profile and admin
 * forms later). They take the props Conform's `getInputProps` derives (id, name, defaultValue,
 * aria-invalid, aria-describedby, key), so a field's label, input and error list stay linked for
 * screen readers (WCAG 2.2 SC 1.3.1, 3.3.1) and work the same with JavaScript off.
 */
import { useId, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type LabelHTMLAttributes, type ReactNode } from 'react'
import { useFormAction, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { SubmissionResult } from '@conform-to/react'
import { EyeIcon, EyeOffIcon } from './icons.tsx'
import { ToastNotice } from './toasts.tsx'
import { useIsStale } from './use-stale-reply.ts'
import type { ToastMessage } from '../lib/toast.ts'

/** Errors as Conform reports them: a list of messages, or nothing. */
export type ListOfErrors = Array<string | null | undefined> | null | undefined

type InputProps = InputHTMLAttributes<HTMLInputElement> & { key?: string }

const inputClass =
  'block h-12 w-full rounded-md border border-slate-300 bg-white px-4 text-base text-slate-900 placeholder:text-slate-400 ' +
  'focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-500'

/**
 * The messages of one field (or of the whole form), each on its own line. Renders nothing when there
 * are none. `id` is what the input's `aria-describedby` points at.
 */
export function ErrorList({ id, errors, role }: { id?: string; errors?: ListOfErrors; role?: 'alert' }) {
  const messages = (errors ?? []).filter((message): message is string => Boolean(message))
  if (messages.length === 0) return null
  // The live region wraps the list: `role` on the <ul> itself would take away its list role and
  // leave the <li>s outside any list (axe `listitem`).
  return (
    <div id={id} role={role}>
      <ul className="mt-1 space-y-1 text-sm text-red-600">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  )
}

/** Splits React's `key` out of spread props (React warns when `key` is spread into JSX). */
function splitKey({ key, ...rest }: InputProps): [string | undefined, InputHTMLAttributes<HTMLInputElement>] {
  return [key, rest]
}

/** The same messages in the same order. */
function sameMessages(a: ListOfErrors, b: ListOfErrors): boolean {
  return Boolean(a && b && a.length === b.length && a.every((message, i) => message === b[i]))
}

/** Conform's form metadata as FormAlert reads it. */
type FormMetaLike = { id: string; errorId: string; errors?: string[] }
/** An action's answer to a form (app/.server/form.ts `FormReply`): Conform's reply and a toast. */
export type FormReplyData = { result?: SubmissionResult<string[]> | null; toast?: ToastMessage | null } | null | undefined

/**
 * The form-level messages of `form` to show now: Conform's, less those of the action's `reply` once
 * the form was changed or sent again since (app/components/use-stale-reply.ts).
 */
export function useFormErrors(form: FormMetaLike, reply: FormReplyData): string[] | null | undefined {
  const isStale = useIsStale(form.id, reply)
  return isStale && sameMessages(form.errors, reply?.result?.error?.['']) ? null : form.errors
}

/**
 * A form's own messages above its button (Conform's form errors, announced as an alert) and the toast
 * of the action's `reply`, both following the form's state: once the form is changed or sent again
 * (app/components/use-stale-reply.ts), the reply's messages are hidden and its toast dismissed, so a
 * stale error never stands beside what happens next. Messages the browser's own check shows since
 * are kept. `form` is Conform's form metadata (its id, error id and errors).
 */
export function FormAlert({ form, reply }: { form: FormMetaLike; reply: FormReplyData }) {
  const errors = useFormErrors(form, reply)
  return (
    <>
      <ErrorList id={form.errorId} errors={errors} role="alert" />
      <ToastNotice toast={reply?.toast} shownInForm={errors} formId={form.id} />
    </>
  )
}

/** A labelled text input with its error list beneath. */
export function Field({
  labelProps,
  inputProps,
  errors,
  className,
}: {
  labelProps: LabelHTMLAttributes<HTMLLabelElement>
  inputProps: InputProps
  errors?: ListOfErrors
  className?: string
}) {
  const fallbackId = useId()
  const [key, rest] = splitKey(inputProps)
  const id = rest.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700" {...labelProps} />
      <input key={key} id={id} {...rest} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} className={inputClass} />
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/**
 * A password input with a show/hide toggle (docs/product.md, "Auth screens"). The toggle needs
 * JavaScript, so it appears only after hydration; the input keeps its right padding either way so
 * nothing shifts when it does.
 */
export function PasswordField({
  labelProps,
  inputProps,
  errors,
  className,
}: {
  labelProps: LabelHTMLAttributes<HTMLLabelElement>
  inputProps: Omit<InputProps, 'type'>
  errors?: ListOfErrors
  className?: string
}) {
  const isHydrated = useHydrated()
  const [isVisible, setVisible] = useState(false)
  const fallbackId = useId()
  const [key, rest] = splitKey(inputProps)
  const id = rest.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  // "Show confirm password" rather than a second "Show password" when a form has two.
  const what = typeof labelProps.children === 'string' ? labelProps.children.toLowerCase() : 'password'
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700" {...labelProps} />
      <div className="relative">
        <input
          key={key}
          id={id}
          {...rest}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          type={isVisible ? 'text' : 'password'}
          className={`${inputClass} pr-12`}
        />
        {isHydrated ? (
          <button
            type="button"
            onClick={() => setVisible((visible) => !visible)}
            aria-label={`${isVisible ? 'Hide' : 'Show'} ${what}`}
            aria-pressed={isVisible}
            aria-controls={id}
            className="absolute inset-y-0 right-0 flex w-12 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/40"
          >
            {isVisible ? <EyeOffIcon size={22} /> : <EyeIcon size={22} />}
          </button>
        ) : null}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/**
 * True while this route's form (by default the closest route's action, same method) is being
 * submitted or its redirect is loading, so a button can show progress and refuse a second submit.
 */
export function useIsPending({
  formAction,
  formMethod = 'POST',
}: { formAction?: string; formMethod?: 'POST' | 'GET' | 'PUT' | 'DELETE' } = {}) {
  const contextualFormAction = useFormAction()
  const navigation = useNavigation()
  return (
    navigation.state !== 'idle' && navigation.formMethod === formMethod && navigation.formAction === (formAction ?? contextualFormAction)
  )
}

/** The green confirm button of a form (style: green for confirm actions), full width, large. */
export function SubmitButton({
  isPending = false,
  className,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { isPending?: boolean }) {
  return (
    <button
      type="submit"
      aria-busy={isPending || undefined}
      {...props}
      disabled={props.disabled || isPending}
      className={
        'flex h-12 w-full items-center justify-center rounded-md bg-accent px-4 text-base font-semibold text-white ' +
        'hover:bg-green-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:ring-offset-2 ' +
        'disabled:cursor-not-allowed disabled:bg-slate-400 ' +
        (className ?? '')
      }
    >
      {children}
    </button>
  )
}

/** The centred white card of a single-form page (sign-in screens): max-w-md, heading on top. */
export function FormCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <div data-card="form" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="mb-6 text-2xl font-semibold text-slate-900">{title}</h1>
        {children}
      </div>
    </div>
  )
}
