/**
 * Buttons and button-looking links shared by every screen (docs/product.md, "Look and feel": green for add
 * and confirm actions, rounded corners, touch targets of at least 40 px — WCAG 2.2 SC 2.5.8 asks for
 * 24 px; a shop used one-handed needs more).
 */
import type { ComponentProps } from 'react'
import { Link } from 'react-router'
import { cn } from './cn.ts'
import { Spinner } from './spinner.tsx'

/** primary: green confirm/add; brand: yellow highlight; secondary: white with border; ghost: no frame; danger: red. */
export type ButtonVariant = 'primary' | 'brand' | 'secondary' | 'ghost' | 'danger'
/** Every size is at least 40 px tall; `icon` is a 40 px square for icon-only buttons (give it aria-label). */
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon'

export interface ButtonStyle {
  variant?: ButtonVariant
  size?: ButtonSize
  fullWidth?: boolean
}

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-white hover:bg-accent-dark focus-visible:outline-accent',
  brand: 'bg-brand text-slate-900 hover:bg-brand-dark focus-visible:outline-slate-900',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:outline-accent',
  ghost: 'text-slate-800 hover:bg-slate-100 focus-visible:outline-accent',
  danger: 'bg-red-600 text-white hover:bg-red-700 focus-visible:outline-red-600',
}

const SIZES: Record<ButtonSize, string> = {
  sm: 'min-h-10 px-3 text-sm',
  md: 'min-h-11 px-4 text-sm',
  lg: 'min-h-12 px-6 text-base',
  icon: 'size-10 shrink-0 p-0',
}

/** The class list of a button in the given style, for elements that are not `<Button>`. */
export function buttonClassName({ variant = 'primary', size = 'md', fullWidth = false }: ButtonStyle = {}): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors select-none',
    'focus-visible:outline-2 focus-visible:outline-offset-2',
    'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
    VARIANTS[variant],
    SIZES[size],
    fullWidth && 'w-full',
  )
}

export type ButtonProps = ComponentProps<'button'> &
  ButtonStyle & {
    /** Shows a spinner and disables the button while a submission is in flight. */
    isPending?: boolean
  }

/** A `<button>`, `type="button"` unless told otherwise (so it never submits a form by accident). */
export function Button({
  variant,
  size,
  fullWidth,
  isPending = false,
  className,
  type = 'button',
  disabled,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(buttonClassName({ variant, size, fullWidth }), className)}
      disabled={disabled || isPending}
      aria-busy={isPending || undefined}
      {...props}
    >
      {isPending ? <Spinner size={16} /> : null}
      {children}
    </button>
  )
}

export type ButtonLinkProps = ComponentProps<typeof Link> & ButtonStyle

/** A React Router `<Link>` that looks like a button (navigation, not an action). */
export function ButtonLink({ variant, size, fullWidth, className, ...props }: ButtonLinkProps) {
  return <Link className={cn(buttonClassName({ variant, size, fullWidth }), className)} {...props} />
}
