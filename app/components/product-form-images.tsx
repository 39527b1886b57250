/**
 * The Image field of the product form (app/components/product-form.tsx): up to PRODUCT_IMAGES_MAX images,
 * each a thumbnail (click to enlarge) with a remove control, plus the picker. The form posts the
 * images as urls in hidden `image[i]` inputs.
 *
 * - Without JavaScript: the picker is a multiple file input uploaded when the form is sent (field
 *   `imageFile`, app/.server/product-form.ts); an uploaded image is removed with a "Remove" checkbox
 *   and its thumbnail links to the full image; "Upload selected images" sends the form to upload
 *   without saving.
 * - With JavaScript: each picked image is shown at once and uploaded by its own fetcher to the page's
 *   action (`intent=upload`), its url joining the hidden inputs; the thumbnail opens a full-screen
 *   viewer; the × button removes it without a request.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react'
import { useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList } from './forms.tsx'
import { CloseIcon } from './icons.tsx'
import { showToast } from './toasts.tsx'
import { buttonClassName } from './ui/button.tsx'
import { cn } from './ui/cn.ts'
import { Spinner } from './ui/spinner.tsx'
import { isStoredImageUrl, variantUrl } from '../../contract/images.ts'
import { IMAGE_FILES_FIELD, PRODUCT_FIELD_LABELS, PRODUCT_INTENT, REMOVE_IMAGE_FIELD } from '../lib/schemas/product.ts'
import { IMAGE_ACCEPT, checkImageFile, formatByteSize, useUploadMaxBytes, type UploadReply } from '../lib/uploads.ts'
import { PRODUCT_IMAGES_MAX } from '../../contract/product.ts'

/** The props of a hidden input for `meta`, with React's `key` taken out of the spread. */
export function hiddenProps(meta: FieldMetadata<string>) {
  const { key: _key, ...props } = getInputProps(meta, { type: 'hidden' })
  return props
}

/** The url of a thumbnail of `url` (a 256 px variant of a stored image). */
function thumbnailSrc(url: string): string {
  return isStoredImageUrl(url) ? variantUrl(url, 256) : url
}

/** Conform's list intents of the form (method syntax: they take the form's own field names). */
interface ListControls {
  insert(options: { name: string; defaultValue?: string }): void
  remove(options: { name: string; index: number }): void
}

/** A picked file on its way up: its local preview until the upload answers. */
interface PendingImage {
  id: string
  file: File
  preview: string
}

/**
 * The Image field of `form` (see the module comment). `field` is the form's `image` list;
 * `uploadAction` the page's action; `onInFlightChange` hears how many uploads are running (the form is
 * not saved meanwhile).
 */
export function ProductImages({
  form,
  field,
  uploadAction,
  onInFlightChange,
}: {
  form: ListControls
  field: FieldMetadata<string[]>
  uploadAction: string
  onInFlightChange: (count: number) => void
}) {
  const isHydrated = useHydrated()
  const maxBytes = useUploadMaxBytes()
  const inputId = useId()
  const [pending, setPending] = useState<PendingImage[]>([])
  const [clientErrors, setClientErrors] = useState<string[]>([])
  const [viewing, setViewing] = useState<string | null>(null)
  const images = field.getFieldList()
  const room = PRODUCT_IMAGES_MAX - images.length - pending.length

  const announceInFlight = useEffectEvent((count: number) => onInFlightChange(count))
  useEffect(() => announceInFlight(pending.length), [pending.length])

  const finish = (upload: PendingImage, answer: UploadReply) => {
    URL.revokeObjectURL(upload.preview)
    setPending((list) => list.filter((item) => item.id !== upload.id))
    if (answer.url) form.insert({ name: field.name, defaultValue: answer.url })
    else {
      const message = `${upload.file.name}: ${answer.error ?? 'Upload failed'}`
      setClientErrors((list) => [...list, message])
      void showToast({ type: 'error', message })
    }
  }

  const pick = (files: FileList | null) => {
    const problems: string[] = []
    const accepted: PendingImage[] = []
    for (const file of Array.from(files ?? [])) {
      const problem = checkImageFile(file, maxBytes)
      if (problem) problems.push(`${file.name}: ${problem}`)
      else if (accepted.length >= room) problems.push(`At most ${PRODUCT_IMAGES_MAX} images: ${file.name} was left out`)
      else accepted.push({ id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, file, preview: URL.createObjectURL(file) })
    }
    setClientErrors(problems)
    if (accepted.length) setPending((list) => [...list, ...accepted])
  }

  const messages = [...clientErrors, ...(field.errors ?? [])]
  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {PRODUCT_FIELD_LABELS.image}
      </label>
      <div className="flex flex-wrap gap-3">
        {images.map((item, index) => {
          const url = item.value ?? item.initialValue ?? ''
          return (
            <Thumbnail key={item.key} url={url} label={`Image ${index + 1}`} onView={isHydrated ? () => setViewing(url) : undefined}>
              <input {...hiddenProps(item)} />
              {isHydrated ? (
                <button
                  type="button"
                  onClick={() => form.remove({ name: field.name, index })}
                  aria-label={`Remove image ${index + 1}`}
                  className="absolute top-1 right-1 inline-flex size-8 items-center justify-center rounded-full bg-white/90 text-slate-700 shadow ring-1 ring-black/10 hover:bg-red-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-red-600 sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100"
                >
                  <CloseIcon size={16} />
                </button>
              ) : (
                <label className="absolute inset-x-0 bottom-0 flex items-center gap-1 bg-white/90 px-1.5 py-1 text-xs font-medium text-slate-800">
                  <input type="checkbox" name={REMOVE_IMAGE_FIELD} value={url} className="size-4" />
                  Remove
                </label>
              )}
            </Thumbnail>
          )
        })}
        {pending.map((upload) => (
          <PendingThumbnail key={upload.id} upload={upload} action={uploadAction} onDone={finish} />
        ))}
        {images.length === 0 && pending.length === 0 ? (
          <div className="flex size-24 items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50 text-center text-xs text-slate-500">
            No Image
          </div>
        ) : null}
      </div>
      <div className="mt-3">
        <input
          id={inputId}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          name={isHydrated ? undefined : IMAGE_FILES_FIELD}
          disabled={isHydrated && room <= 0}
          aria-invalid={messages.length > 0 || undefined}
          aria-describedby={cn(hintId, messages.length > 0 && errorId)}
          onChange={(event) => {
            pick(event.currentTarget.files)
            // The files are uploaded by fetchers; the input is cleared so the same file can be picked again.
            event.currentTarget.value = ''
          }}
          className={cn(
            'block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-brand file:px-4 file:font-semibold file:text-slate-900 hover:file:bg-brand-dark',
            'disabled:cursor-not-allowed disabled:opacity-60',
          )}
        />
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {isHydrated
            ? `JPEG, PNG, WebP, AVIF or GIF, ${formatByteSize(maxBytes)} each, up to ${PRODUCT_IMAGES_MAX} images. They upload as soon as you pick them.`
            : `JPEG, PNG, WebP, AVIF or GIF, ${formatByteSize(maxBytes)} each, up to ${PRODUCT_IMAGES_MAX} images. They upload when you submit.`}
        </p>
        {!isHydrated ? (
          <button
            type="submit"
            name="intent"
            value={PRODUCT_INTENT.refresh}
            formNoValidate
            className={cn(buttonClassName({ variant: 'secondary', size: 'sm' }), 'mt-2')}
          >
            Upload selected images
          </button>
        ) : null}
        <ErrorList id={errorId} errors={messages} role="alert" />
      </div>
      {viewing ? <ImageViewer url={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  )
}

/**
 * A square thumbnail. With `onView` a click opens the viewer; without JavaScript it is a link to the
 * full image in a new tab (click to enlarge either way).
 */
function Thumbnail({ url, label, onView, children }: { url: string; label: string; onView?: () => void; children?: ReactNode }) {
  const image = <img src={thumbnailSrc(url)} alt={label} width={96} height={96} loading="lazy" className="size-full object-contain" />
  return (
    <div className="group relative size-24 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      {onView ? (
        <button type="button" onClick={onView} aria-label={`Enlarge ${label.toLowerCase()}`} className="block size-full cursor-zoom-in">
          {image}
        </button>
      ) : (
        <a href={url} target="_blank" rel="noreferrer" aria-label={`Open ${label.toLowerCase()} full size`} className="block size-full">
          {image}
        </a>
      )}
      {children}
    </div>
  )
}

/** An image being uploaded: the local preview under a spinner; its own fetcher posts it once. */
function PendingThumbnail({
  upload,
  action,
  onDone,
}: {
  upload: PendingImage
  action: string
  onDone: (upload: PendingImage, answer: UploadReply) => void
}) {
  const fetcher = useFetcher<UploadReply>()
  const isSent = useRef(false)
  const isDone = useRef(false)

  // Posted once, when the thumbnail mounts; the answer is handed on once. Effect events read the
  // latest props without making the effects run again when those change.
  const send = useEffectEvent(() => {
    const formData = new FormData()
    formData.set('intent', PRODUCT_INTENT.upload)
    formData.set('image', upload.file, upload.file.name)
    void fetcher.submit(formData, { method: 'post', action, encType: 'multipart/form-data' })
  })
  useEffect(() => {
    if (isSent.current) return
    isSent.current = true
    send()
  }, [])

  const finish = useEffectEvent((answer: UploadReply) => onDone(upload, answer))
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || isDone.current) return
    isDone.current = true
    finish(fetcher.data)
  }, [fetcher.state, fetcher.data])

  return (
    <div className="relative size-24 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      <img
        src={upload.preview}
        alt={`Uploading ${upload.file.name}`}
        width={96}
        height={96}
        className="size-full object-contain opacity-60"
      />
      <span className="absolute inset-0 flex items-center justify-center">
        <Spinner size={28} label={`Uploading ${upload.file.name}`} />
      </span>
    </div>
  )
}

/** The full-screen viewer of one image (JavaScript only): a modal dialog, Escape or × closes it. */
function ImageViewer({ url, onClose }: { url: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  return (
    <dialog
      ref={ref}
      aria-label="Image viewer"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close()
      }}
      className="fixed inset-0 m-0 h-full max-h-none w-full max-w-none bg-black/90 p-0 backdrop:bg-black/60"
    >
      <div className="flex h-full flex-col">
        <div className="flex justify-end p-3">
          <button
            type="button"
            autoFocus
            onClick={() => ref.current?.close()}
            aria-label="Close"
            className={cn(buttonClassName({ variant: 'ghost', size: 'icon' }), 'text-white hover:bg-white/10')}
          >
            <CloseIcon size={22} />
          </button>
        </div>
        <div className="flex min-h-0 flex-1 items-center justify-center p-4" onClick={() => ref.current?.close()}>
          <img src={url} alt="Full size product image" className="max-h-full max-w-full object-contain" />
        </div>
      </div>
    </dialog>
  )
}
