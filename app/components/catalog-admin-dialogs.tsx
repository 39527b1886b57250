/**
 * The React pieces the category and sub category admin pages share (spec section 2 "Category admin",
 * "Sub Category admin"; section 4 "dialogs close"; section 5 "the submit looks active only when the
 * form is complete"). The rules and addresses they follow are in app/components/catalog-admin.ts;
 * the server side of their forms is app/.server/catalog-admin-actions.ts.
 *
 * Every dialog is opened by the page's address and closed with a link back, so it works the same
 * without JavaScript (server-rendered) and with it (modal).
 */
import type { ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { NAME_MAX_LENGTH, type FieldErrors, type FormParse } from './catalog-admin.ts'
import { ErrorList } from './forms.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { ConfirmDialog, Dialog } from './ui/dialog.tsx'
import { Input, Label } from './ui/input.tsx'

/** Spec section 2, verbatim: the title and question of every admin delete confirmation. */
export const DELETE_TITLE = 'Permanent Deleted'
export const DELETE_MESSAGE = 'Are you sure permanent delete ?'

/** The sticky bar at the top of an admin list: its title (h1) and the "Add …" link (`addHref` opens the add dialog). */
export function AdminListHeader({ title, addHref, addLabel }: { title: string; addHref: string; addLabel: string }) {
  return (
    <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
      <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
      <Link to={addHref} preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
        {addLabel}
      </Link>
    </div>
  )
}

/** A dialog whose entity is gone (deleted meanwhile, or a mistyped address): "This `noun` does not exist any more." */
export function MissingDialog({ title, noun, closeTo }: { title: string; noun: string; closeTo: string }) {
  return (
    <Dialog title={title} closeTo={closeTo} size="sm">
      <p className="text-slate-700">This {noun} does not exist any more.</p>
    </Dialog>
  )
}

/**
 * The "Permanent Deleted" confirmation of entity `targetId` (posts `intent=delete` and `_id` to
 * `action`), or MissingDialog when `targetId` is undefined (the entity is gone).
 */
export function DeleteDialog({
  targetId,
  noun,
  cancelTo,
  action,
}: {
  targetId: string | undefined
  noun: string
  cancelTo: string
  action: string
}) {
  const navigation = useNavigation()
  const isDeleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
  if (!targetId) return <MissingDialog title={DELETE_TITLE} noun={noun} closeTo={cancelTo} />
  return (
    <ConfirmDialog
      title={DELETE_TITLE}
      message={DELETE_MESSAGE}
      cancelTo={cancelTo}
      action={action}
      fields={{ intent: 'delete', _id: targetId }}
      isPending={isDeleting}
    />
  )
}

/**
 * The Name field of a category or sub category form (1..NAME_MAX_LENGTH characters), focused when
 * its dialog opens; its messages are linked by `<id>-error`.
 */
export function NameField({
  id,
  value,
  onChange,
  placeholder,
  errors,
}: {
  id: string
  value: string
  onChange: (value: string) => void
  placeholder: string
  errors: string[] | undefined
}) {
  return (
    <div>
      <Label htmlFor={id}>Name</Label>
      <Input
        id={id}
        name="name"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        maxLength={NAME_MAX_LENGTH}
        placeholder={placeholder}
        autoComplete="off"
        data-autofocus
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
      />
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  )
}

/**
 * The add or edit dialog of a category or sub category around its fields (`children`): a multipart
 * POST to `action` with `intent` = `mode` (and `_id` when editing), the form's own message, Cancel
 * (a link to `closeTo`) and Submit. With JavaScript a submit while an image is still uploading, or
 * one `parse` finds incomplete, is stopped here and its messages go to `onClientErrors` (the server's
 * own messages, as the server checks again either way); a submit that passes clears them (null).
 * Spec section 5: Submit looks active only when `isReady`; a click still explains what is missing.
 */
export function CatalogFormDialog({
  title,
  mode,
  _id,
  version,
  idempotencyKey,
  action,
  closeTo,
  isUploading,
  isReady,
  formError,
  parse,
  onClientErrors,
  children,
}: {
  title: string
  mode: 'add' | 'edit'
  _id: string | undefined
  /** The edited item's `updatedAt` as loaded: sent back so a change made meanwhile is refused (409). */
  version?: string
  /** The page's idempotency key, posted with an add so a repeated submit makes one entity (app/.server/idempotency.ts). */
  idempotencyKey?: string
  action: string
  closeTo: string
  isUploading: boolean
  isReady: boolean
  formError: string | null | undefined
  parse: (formData: FormData) => FormParse<unknown>
  onClientErrors: (errors: FieldErrors | null) => void
  children: ReactNode
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === mode

  return (
    <Dialog title={title} closeTo={closeTo} size="md">
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          if (isUploading) {
            event.preventDefault()
            onClientErrors({ image: ['Wait until the image is uploaded'] })
            return
          }
          const parsed = parse(new FormData(event.currentTarget))
          if (!parsed.ok) {
            event.preventDefault()
            onClientErrors(parsed.fieldErrors)
            return
          }
          onClientErrors(null)
        }}
      >
        <input type="hidden" name="intent" value={mode} />
        {_id ? <input type="hidden" name="_id" value={_id} /> : null}
        {_id && version ? <input type="hidden" name="updatedAt" value={version} /> : null}
        {mode === 'add' && idempotencyKey ? <input type="hidden" name="idempotencyKey" value={idempotencyKey} /> : null}
        {children}
        <ErrorList errors={formError ? [formError] : null} role="alert" />
        <div className="flex justify-end gap-2">
          <Link to={closeTo} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button type="submit" isPending={isSaving} aria-disabled={isHydrated && !isReady ? true : undefined}>
            {isSaving ? 'Saving…' : 'Submit'}
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}
