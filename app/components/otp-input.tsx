/**
 * The one-time code boxes (docs/product.md, "Password recovery"; docs/product.md, "Validation rules"
 * and "Constants": six boxes, one character each). Six plain inputs named `otp0` … `otp5`, so the
 * form posts them without JavaScript and the BFF joins them (app/lib/schemas/account.ts `OtpSchema`).
 * The first box carries `autocomplete="one-time-code"` and takes up to six characters, so a code the
 * browser autofills or a shopper pastes there arrives whole, with or without JavaScript.
 *
 * With JavaScript: typing a digit moves focus to the next box; Backspace in an empty box goes back and
 * clears the previous one; arrow keys move; pasting a code (or the browser's one-time-code autofill)
 * fills the boxes from the one it lands in; anything but digits is dropped. `clearSignal` clears
 * every box and focuses the first whenever its value changes (after a refused code).
 *
 * Inputs: `id` prefix, `describedBy` (the error list's id, when shown), `isInvalid`, `autoFocus`.
 */
import { useEffect, useRef } from 'react'
import { OTP_FIELD_NAMES, OTP_LENGTH } from '../lib/schemas/account.ts'
import { cn } from './ui/cn.ts'

/** The six code boxes; see the module comment for the keyboard, paste and clearing rules. */
export function OtpInput({
  id,
  describedBy,
  isInvalid = false,
  autoFocus = false,
  clearSignal,
}: {
  id: string
  describedBy?: string
  isInvalid?: boolean
  autoFocus?: boolean
  clearSignal?: unknown
}) {
  const boxes = useRef<Array<HTMLInputElement | null>>([])

  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(OTP_LENGTH - 1, index))]
    box?.focus()
    box?.select()
  }

  /** Writes `digits` into the boxes from `start` on; focuses the box after the last one written. */
  const fill = (start: number, digits: string) => {
    let index = start
    for (const digit of digits) {
      if (index >= OTP_LENGTH) break
      const box = boxes.current[index]
      if (box) box.value = digit
      index += 1
    }
    focusBox(index)
  }

  // A refused code: start again from an empty first box. Skipped on the first render so a fresh page
  // keeps what the shopper typed before hydration.
  const isFirstRender = useRef(true)
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false
      return
    }
    for (const box of boxes.current) if (box) box.value = ''
    focusBox(0)
  }, [clearSignal])

  return (
    <div className="flex justify-between gap-2" role="group" aria-label={`${OTP_LENGTH}-digit code`}>
      {OTP_FIELD_NAMES.map((name, index) => (
        <input
          key={name}
          ref={(element) => {
            boxes.current[index] = element
          }}
          id={index === 0 ? id : `${id}-${index}`}
          name={name}
          type="text"
          inputMode="numeric"
          // The first box takes a whole code: autofill and paste put all six digits there, and with
          // JavaScript off nothing would spread them (the BFF does: app/lib/schemas/account.ts).
          pattern={index === 0 ? `[0-9]{1}|[0-9]{${OTP_LENGTH}}` : '[0-9]'}
          maxLength={index === 0 ? OTP_LENGTH : 1}
          required
          // The browser's SMS/email code autofill lands in the first box; `onInput` spreads it.
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          autoFocus={autoFocus && index === 0}
          aria-label={`Digit ${index + 1} of ${OTP_LENGTH}`}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedBy}
          onFocus={(event) => event.currentTarget.select()}
          onInput={(event) => {
            const box = event.currentTarget
            const digits = box.value.replace(/[^0-9]/g, '')
            box.value = digits.slice(0, 1)
            if (digits.length > 1) fill(index, digits)
            else if (digits.length === 1 && index < OTP_LENGTH - 1) focusBox(index + 1)
          }}
          onKeyDown={(event) => {
            const box = event.currentTarget
            if (event.key === 'Backspace' && box.value === '' && index > 0) {
              event.preventDefault()
              const previous = boxes.current[index - 1]
              if (previous) previous.value = ''
              focusBox(index - 1)
            } else if (event.key === 'ArrowLeft' && index > 0) {
              event.preventDefault()
              focusBox(index - 1)
            } else if (event.key === 'ArrowRight' && index < OTP_LENGTH - 1) {
              event.preventDefault()
              focusBox(index + 1)
            }
          }}
          onPaste={(event) => {
            const digits = event.clipboardData.getData('text').replace(/[^0-9]/g, '')
            if (!digits) return
            event.preventDefault()
            // A whole code fills every box, wherever it was pasted.
            fill(digits.length >= OTP_LENGTH ? 0 : index, digits.slice(0, OTP_LENGTH))
          }}
          className={cn(
            'h-14 w-full min-w-0 max-w-14 rounded-md border bg-white text-center text-2xl font-semibold text-slate-900',
            'focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30',
            isInvalid ? 'border-red-500' : 'border-slate-300',
          )}
        />
      ))}
    </div>
  )
}
