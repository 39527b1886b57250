/**
 * A modal dialog whose open state lives in the address
 * (docs/decisions/0007-progressive-enhancement.md): a page renders `<Dialog>` when its search
 * parameter says so (`?dialog=add`, `?edit=<id>`, …) and closing it is a link back to the address
 * without that parameter. So every dialog is reachable by URL and works without JavaScript.
 *
 * One element serves both cases: a native `<dialog open>` rendered on the server, styled as a
 * full-screen overlay with a centred panel, so without JavaScript it already looks and reads as a
 * dialog (role "dialog", labelled by its title). Once hydrated it is re-opened with `showModal()`,
 * which adds what only a modal dialog has (HTML "The dialog element"; WAI-ARIA APG "Dialog (Modal)"
 * pattern): the rest of the page becomes inert, focus moves into the dialog and stays there, Escape
 * closes it. Escape and a click outside the panel navigate to `closeTo` (the address stays the source
 * of truth); when the dialog goes away, focus returns to the control that opened it.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Form, Link, useNavigate } from 'react-router'
import { Button, buttonClassName } from './button.tsx'
import { cn } from './cn.ts'
import { CloseIcon } from '../icons.tsx'

/** Panel widths: sm for confirmations, md for forms, lg for wide forms, full for an image viewer. */
export type DialogSize = 'sm' | 'md' | 'lg' | 'full'

const PANEL_SIZES: Record<DialogSize, string> = {
  sm: 'w-full max-w-sm rounded-xl bg-white p-5 shadow-xl',
  md: 'w-full max-w-lg rounded-xl bg-white p-5 shadow-xl',
  lg: 'w-full max-w-2xl rounded-xl bg-white p-5 shadow-xl',
  full: 'flex h-full w-full flex-col bg-transparent text-white',
}

export interface DialogProps {
  /** The heading, also the dialog's accessible name. */
  title: ReactNode
  /** Where closing goes: the page's address without the dialog's search parameter. */
  closeTo: string
  children: ReactNode
  size?: DialogSize
  /** Extra text read with the title (aria-describedby), e.g. a confirmation question. */
  description?: ReactNode
  /** Hides the title visually (still announced), for the image viewer. */
  hideTitle?: boolean
  className?: string
}

/**
 * The dialog. Put `data-autofocus` on the element that should take focus when it opens (else the
 * browser picks the first focusable one). Renders nothing of its own state: mount it when the URL
 * names it, unmount it to close.
 */
export function Dialog({ title, closeTo, children, size = 'md', description, hideTitle = false, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  const titleId = useId()
  const descriptionId = useId()
  const close = () => navigate(closeTo, { replace: true, preventScrollReset: true })

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    // The server rendered it open but not modal; showModal() throws on an open dialog, so close first.
    if (!dialog.matches(':modal')) {
      dialog.close()
      dialog.showModal()
    }
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    // A modal dialog does not stop the page behind it from scrolling.
    const root = document.documentElement
    const overflow = root.style.overflow
    root.style.overflow = 'hidden'
    return () => {
      root.style.overflow = overflow
      if (opener?.isConnected) opener.focus({ preventScroll: true })
    }
  }, [])

  const isFull = size === 'full'
  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      onCancel={(event) => {
        // Escape: close by address, so the back button and the page agree on what is open.
        event.preventDefault()
        close()
      }}
      className={cn(
        // The dialog itself is the overlay, so it looks the same modal (top layer) or not (no JavaScript).
        'fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none overflow-y-auto p-0 text-slate-900 backdrop:bg-transparent',
        isFull ? 'bg-black/90' : 'bg-black/50',
      )}
    >
      <div
        className={cn('flex min-h-full items-center justify-center', isFull ? 'p-0' : 'p-4')}
        onClick={(event) => {
          if (event.target === event.currentTarget) close()
        }}
      >
        <div data-card="dialog" className={cn(PANEL_SIZES[size], className)}>
          <div className={cn('flex items-start justify-between gap-3', isFull ? 'p-3' : 'mb-4')}>
            <h2 id={titleId} className={cn('text-lg font-semibold', hideTitle && 'sr-only', isFull ? 'text-white' : 'text-slate-900')}>
              {title}
            </h2>
            <Link
              to={closeTo}
              replace
              preventScrollReset
              aria-label="Close"
              className={cn(buttonClassName({ variant: 'ghost', size: 'icon' }), 'ml-auto', isFull && 'text-white hover:bg-white/10')}
            >
              <CloseIcon size={22} />
            </Link>
          </div>
          {description ? (
            <p id={descriptionId} className={cn('mb-4', isFull ? 'text-white' : 'text-slate-700')}>
              {description}
            </p>
          ) : null}
          {children}
        </div>
      </div>
    </dialog>
  )
}

export interface ConfirmDialogProps {
  title: string
  /** The question, e.g. "Are you sure permanent delete ?" (docs/product.md, "Category admin"). */
  message: string
  /** Where Cancel (and Escape) goes. */
  cancelTo: string
  /** The form's action: the page's address with the dialog's parameter, so errors come back to it. */
  action: string
  /** Hidden fields posted with Confirm, e.g. `{ intent: 'delete', _id }`. */
  fields: Record<string, string>
  isPending?: boolean
  confirmLabel?: string
}

/**
 * A confirmation (docs/product.md, "Category admin"): the question, Cancel (a link back) and
 * Confirm (a plain POST form, so it works without JavaScript).
 */
export function ConfirmDialog({
  title,
  message,
  cancelTo,
  action,
  fields,
  isPending = false,
  confirmLabel = 'Confirm',
}: ConfirmDialogProps) {
  return (
    <Dialog title={title} description={message} closeTo={cancelTo} size="sm">
      <Form method="post" action={action} className="flex justify-end gap-2">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Link to={cancelTo} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })} data-autofocus>
          Cancel
        </Link>
        <Button type="submit" variant="danger" isPending={isPending}>
          {confirmLabel}
        </Button>
      </Form>
    </Dialog>
  )
}
