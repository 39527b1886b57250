/**
 * Form fields shared by the auth, profile and admin screens: a label, a 44 px input and the field's
 * error text, linked by id for screen readers (WCAG 2.2 SC 3.3.1 and 1.3.1).
 */
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/** Classes of a text input; `hasError` paints the red border. */
export function inputClassName(hasError = false): string {
  return cn(
    'block min-h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 placeholder:text-slate-400',
    'focus:outline-2 focus:outline-offset-0 focus:outline-accent disabled:bg-slate-100',
    hasError ? 'border-red-500' : 'border-slate-300',
  )
}

export function Input({ className, ...props }: ComponentProps<'input'>) {
  const hasError = props['aria-invalid'] === true || props['aria-invalid'] === 'true'
  return <input className={cn(inputClassName(hasError), className)} {...props} />
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('mb-1 block text-sm font-medium text-slate-700', className)} {...props} />
}
