/**
 * The two steps of an SMS code, shared by phone sign-in (/login/phone) and the profile's mobile
 * verification (docs/decisions/0054-phone-sign-in-pages.md):
 *
 * - `MobileNumberField`: a 10-digit number field (`type="tel"`, `inputmode="numeric"`,
 *   `autocomplete="tel-national"`) with the +91 prefix shown before it.
 * - `SmsCodeForm`: the code field (`autocomplete="one-time-code"`, `inputmode="numeric"`,
 *   `pattern="[0-9]{6}"`), the number with a "Change" link back to step 1, and "Resend OTP" in a form
 *   of its own. With JavaScript the form submits itself when the sixth digit is typed, WebOTP
 *   (`navigator.credentials.get({ otp })`, where the browser has it) fills and submits the code from
 *   the SMS, and "Resend OTP" counts down and stays disabled until the wait is over. Without
 *   JavaScript the resend button is always there and the server answers the wait if it is too early.
 *
 * The forms post to the page's own action with an `intent` (`SEND_INTENT`, `VERIFY_INTENT`,
 * `RESEND_INTENT`); messages are the server's, shown inline.
 */
import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList, FormAlert, SubmitButton, useIsPending, type FormReplyData } from './forms.tsx'
import { useSchemaForm } from './use-schema-form.ts'
import { cn } from './ui/cn.ts'
import { RESEND_INTENT, SMS_CODE_LENGTH, SMS_CODE_PATTERN, SmsCodeSchema, VERIFY_INTENT } from '../lib/schemas/phone.ts'

const inputClass =
  'block h-12 w-full min-w-0 rounded-md border border-slate-300 bg-white px-4 text-base text-slate-900 placeholder:text-slate-400 ' +
  'focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-500'

/**
 * The number field of step 1: a label, "+91" before a 10-digit input, the field's messages beneath.
 * With JavaScript anything but digits is dropped as it is typed (a pasted "+91 98765-43210" keeps its
 * digits; the server accepts the prefixes either way).
 */
export function MobileNumberField({
  field,
  label = 'Mobile number',
  autoFocus = false,
}: {
  field: FieldMetadata<string>
  label?: string
  autoFocus?: boolean
}) {
  const { key, ...inputProps } = getInputProps(field, { type: 'tel' })
  const errorId = field.errors?.length ? field.errorId : undefined
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-stretch">
        <span
          aria-hidden="true"
          className="flex items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-50 px-3 text-base font-medium text-slate-700"
        >
          +91
        </span>
        <input
          key={key}
          {...inputProps}
          // The +91 is shown, not typed: a screen reader hears it from the description.
          aria-describedby={cn(`${field.id}-prefix`, errorId)}
          aria-invalid={errorId ? true : undefined}
          inputMode="numeric"
          autoComplete="tel-national"
          autoFocus={autoFocus}
          maxLength={16}
          placeholder="10-digit mobile number"
          onInput={(event) => {
            const input = event.currentTarget
            if (/^\+?[0-9]*$/.test(input.value)) return
            input.value = input.value.replace(/[^0-9+]/g, '')
          }}
          className={cn(inputClass, 'rounded-l-none')}
        />
      </div>
      <span id={`${field.id}-prefix`} className="sr-only">
        Indian number, +91
      </span>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  )
}

/** What the code step shows: where the code went and how long until it may be sent again. */
export interface CodeStep {
  /** The number as shown ("+91 98765 43210"). */
  mobileLabel: string
  /** Whole seconds until "Resend OTP" (0: now). */
  resendInSeconds: number
}

/** The `OTPCredential` of the WebOTP API (not in TypeScript's DOM types yet). */
interface OtpCredential extends Credential {
  code: string
}

/**
 * WebOTP (W3C WebOTP API): while `enabled` and the browser has it, waits for the SMS code bound to
 * this origin and hands it to `onCode`; given up (aborted) when the page moves on.
 */
function useWebOtp(enabled: boolean, onCode: (code: string) => void) {
  const handleCode = useEffectEvent(onCode)
  useEffect(() => {
    if (!enabled || typeof window === 'undefined' || !('OTPCredential' in window) || !navigator.credentials) return
    const controller = new AbortController()
    navigator.credentials
      .get({ otp: { transport: ['sms'] }, signal: controller.signal } as CredentialRequestOptions)
      .then((credential) => {
        const code = (credential as OtpCredential | null)?.code
        if (code) handleCode(code)
      })
      // Aborted, refused or timed out: the shopper types the code.
      .catch(() => {})
    return () => controller.abort()
  }, [enabled])
}

/**
 * Seconds left of `initial`, counting down once a second in the browser (0 stays 0). A new wait is a
 * new component (keyed by the wait), so the count starts from the server's figure each time.
 */
function useCountdown(initial: number): number {
  const [left, setLeft] = useState(initial)
  useEffect(() => {
    if (initial <= 0) return
    const deadline = Date.now() + initial * 1000
    const timer = window.setInterval(() => {
      const now = Math.max(0, Math.ceil((deadline - Date.now()) / 1000))
      setLeft(now)
      if (now === 0) window.clearInterval(timer)
    }, 1000)
    return () => window.clearInterval(timer)
  }, [initial])
  return left
}

/**
 * Step 2: the code form and "Resend OTP". `id` names the Conform form; `action` is where both forms
 * post (the page's own URL, with its query); `changeHref` goes back to step 1; `reply` is the action's
 * answer to the code form, `resendReply` its answer to "Resend OTP" (a message of its own).
 */
export function SmsCodeForm({
  id,
  action,
  step,
  changeHref,
  reply,
  resendReply,
  submitLabel = 'Verify',
  children,
}: {
  id: string
  action: string
  step: CodeStep
  changeHref: string
  reply: FormReplyData
  resendReply: FormReplyData
  submitLabel?: string
  children?: ReactNode
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const isBusy = useIsPending({ formAction: action })
  const isResending = isBusy && navigation.formData?.get('intent') === RESEND_INTENT
  const isVerifying = isBusy && !isResending
  const [form, fields] = useSchemaForm(id, SmsCodeSchema, reply?.result as SubmissionResult<string[]> | undefined, undefined, {
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onSubmit',
  })
  const formRef = useRef<HTMLFormElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)

  /** Puts `code` in the field and sends the form (the sixth digit typed, or WebOTP's code). */
  const submitCode = (code: string) => {
    const input = inputRef.current
    if (!input || !formRef.current) return
    input.value = code
    formRef.current.requestSubmit()
  }
  useWebOtp(isHydrated, submitCode)

  // A refused code is typed again: the field is emptied and focused (without JavaScript the server
  // renders it empty).
  useEffect(() => {
    const input = inputRef.current
    if (reply?.result?.status === 'error' && input) {
      input.value = ''
      input.focus()
    }
  }, [reply])

  const { key, ...otpProps } = getInputProps(fields.otp, { type: 'text' })
  const otpErrorId = fields.otp.errors?.length ? fields.otp.errorId : undefined
  return (
    <>
      <p className="-mt-3 mb-5 text-sm text-slate-600">
        Enter the {SMS_CODE_LENGTH}-digit code sent by SMS to{' '}
        <strong data-testid="code-sent-to" className="font-semibold break-all whitespace-nowrap text-slate-900">
          {step.mobileLabel}
        </strong>
        . It is valid for 10 minutes.{' '}
        <Link to={changeHref} className="font-medium text-accent hover:underline" aria-label="Change mobile number">
          Change
        </Link>
      </p>
      <Form method="post" action={action} {...getFormProps(form)} ref={formRef} className="space-y-5">
        <input type="hidden" name="intent" value={VERIFY_INTENT} />
        {children}
        <div>
          <label htmlFor={fields.otp.id} className="mb-1 block text-sm font-medium text-slate-700">
            Enter OTP
          </label>
          <input
            key={key}
            {...otpProps}
            ref={inputRef}
            defaultValue=""
            aria-invalid={otpErrorId ? true : undefined}
            aria-describedby={otpErrorId}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern={SMS_CODE_PATTERN}
            maxLength={SMS_CODE_LENGTH}
            autoFocus
            placeholder="6-digit code"
            onInput={(event) => {
              const input = event.currentTarget
              const digits = input.value.replace(/[^0-9]/g, '').slice(0, SMS_CODE_LENGTH)
              if (digits !== input.value) input.value = digits
              // The sixth digit sends the code (JavaScript only; without it the button does).
              if (digits.length === SMS_CODE_LENGTH && !isBusy) formRef.current?.requestSubmit()
            }}
            className={cn(inputClass, 'text-center text-xl tracking-[0.5em]')}
          />
          <ErrorList id={otpErrorId} errors={fields.otp.errors} />
        </div>
        <FormAlert form={form} reply={reply} />
        <SubmitButton isPending={isVerifying} disabled={isResending}>
          {isVerifying ? 'Verifying…' : submitLabel}
        </SubmitButton>
      </Form>
      {/* Keyed by the wait: a new code (or a fresh page) starts a new count. */}
      <ResendForm key={step.resendInSeconds} action={action} waitSeconds={step.resendInSeconds} isBusy={isBusy} reply={resendReply} />
    </>
  )
}

/**
 * "Resend OTP", a form of its own so resending never posts, or is blocked by, a half-typed code. With
 * JavaScript it counts down `waitSeconds` and stays disabled until then; without, the server answers
 * the wait when it is too early.
 */
function ResendForm({
  action,
  waitSeconds,
  isBusy,
  reply,
}: {
  action: string
  waitSeconds: number
  isBusy: boolean
  reply: FormReplyData
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const isResending = isBusy && navigation.formData?.get('intent') === RESEND_INTENT
  const resendIn = useCountdown(waitSeconds)
  return (
    <Form method="post" action={action} className="mt-4 text-center text-sm text-slate-700">
      Didn&apos;t get the code?{' '}
      <button
        type="submit"
        name="intent"
        value={RESEND_INTENT}
        disabled={isBusy || (isHydrated && resendIn > 0)}
        className="min-h-10 font-semibold text-accent hover:underline disabled:text-slate-500 disabled:no-underline"
      >
        {isResending ? 'Sending…' : isHydrated && resendIn > 0 ? `Resend OTP in ${resendIn} s` : 'Resend OTP'}
      </button>
      <ResendAnswer reply={reply} />
    </Form>
  )
}

/** The answer to "Resend OTP": a new code is on its way, or why not (the wait), as a status line. */
function ResendAnswer({ reply }: { reply: FormReplyData }) {
  const toast = reply?.toast
  if (!toast) return null
  return (
    <p
      role={toast.type === 'error' ? 'alert' : 'status'}
      className={cn('mt-2 text-sm break-words', toast.type === 'error' ? 'text-red-600' : 'text-emerald-700')}
    >
      {toast.message}
    </p>
  )
}
