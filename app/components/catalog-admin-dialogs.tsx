/**
 * The React pieces the category and sub category admin pages share (docs/product.md, "Category
 * admin", "Sub Category admin"): the list header, the delete confirmation, the add/edit dialog around
 * a Conform form (the submit looks active only when the form is complete, yet a click still explains
 * what is missing), its Name field and its image field's state. The rules they follow
 * are app/lib/schemas/catalog.ts, the dialog addresses app/lib/admin-urls.ts; the server side of
 * their forms is app/.server/catalog-admin-form.ts and each page's `.server.ts` beside it.
 *
 * Every dialog is opened by the page's address and closed with a link back, so it works the same
 * without JavaScript (server-rendered) and with it (modal;
 * docs/decisions/0007-progressive-enhancement.md).
 */
import { getFormProps, getInputProps, type FieldMetadata, type FormMetadata } from '@conform-to/react'
import { useState, type ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList, FormAlert, type FormReplyData } from './forms.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { ConfirmDialog, Dialog } from './ui/dialog.tsx'
import { Input, Label } from './ui/input.tsx'
import { useRevalidateOnChange } from './use-schema-form.ts'
import { CATALOG_NAME_MAX_LENGTH } from '../lib/schemas/catalog.ts'
import { UPLOAD_PENDING_MESSAGE } from '../lib/uploads.ts'

/** The title and question of every admin delete confirmation, verbatim from the original app. */
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

/** The Name field of a category or sub category form (at most CATALOG_NAME_MAX_LENGTH characters), focused when its dialog opens. */
export function NameField({ meta, placeholder }: { meta: FieldMetadata<string>; placeholder: string }) {
  const { key, ...props } = getInputProps(meta, { type: 'text' })
  return (
    <div>
      <Label htmlFor={meta.id}>Name</Label>
      <Input key={key} {...props} maxLength={CATALOG_NAME_MAX_LENGTH} placeholder={placeholder} autoComplete="off" data-autofocus />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/**
 * The state of a dialog's image field (`field`, the form's `image`): its url as the upload answered
 * it, whether an upload is in flight, and the message while a submit waits for one. The field is
 * checked again when a new url arrives while it is shown wrong, so "Image is required" goes with
 * the upload. `fieldProps` go to the ImageUploadField.
 */
export function useDialogImage(form: { validate: (options: { name: string }) => void }, field: FieldMetadata<string>) {
  const [url, setUrl] = useState(field.initialValue ?? '')
  const [isUploading, setUploading] = useState(false)
  const [isWaitShown, setWaitShown] = useState(false)
  useRevalidateOnChange(form, field.name, url, Boolean(field.errors?.length))
  return {
    url,
    isUploading,
    /** For CatalogFormDialog: a submit was stopped because an upload is still running. */
    onUploadPending: () => setWaitShown(true),
    fieldProps: {
      defaultValue: url,
      errors: isWaitShown && isUploading ? [UPLOAD_PENDING_MESSAGE] : field.errors,
      onChange: setUrl,
      onPendingChange: setUploading,
    },
  }
}

/**
 * The add or edit dialog of a category or sub category around its fields (`children`): Conform's
 * `form` as a multipart POST to `action` with `intent` = `mode` (and `_id` and the version read when
 * editing), the form's own messages and the reply's toast (FormAlert), Cancel (a link to `closeTo`)
 * and Submit. With JavaScript the browser checks the form with the server's schema before it is
 * sent; a submit while an image is still uploading is stopped and `onUploadPending` says so.
 * Submit looks active only when `isReady`; a click still explains what is missing.
 */
export function CatalogFormDialog<S extends Record<string, unknown>>({
  title,
  form,
  reply,
  mode,
  _id,
  version,
  idempotencyKey,
  action,
  closeTo,
  isUploading,
  isReady,
  onUploadPending,
  children,
}: {
  title: string
  form: FormMetadata<S, string[]>
  /** The action's answer to this dialog's last submission, if any. */
  reply: FormReplyData
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
  onUploadPending: () => void
  children: ReactNode
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === mode
  const formProps = getFormProps(form)

  return (
    <Dialog title={title} closeTo={closeTo} size="md">
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        {...formProps}
        className="grid gap-4"
        onSubmit={(event) => {
          if (isUploading) {
            event.preventDefault()
            onUploadPending()
            return
          }
          formProps.onSubmit(event)
        }}
      >
        <input type="hidden" name="intent" value={mode} />
        {_id ? <input type="hidden" name="_id" value={_id} /> : null}
        {_id && version ? <input type="hidden" name="updatedAt" value={version} /> : null}
        {mode === 'add' && idempotencyKey ? <input type="hidden" name="idempotencyKey" value={idempotencyKey} /> : null}
        {children}
        <FormAlert form={form} reply={reply} />
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
