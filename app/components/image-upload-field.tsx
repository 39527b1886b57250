/**
 * An image field of the category and sub category forms: upload with a preview, "No Image" when
 * empty; the url `file/upload` answers is stored. The form posts the image as a url in a hidden input
 * (`image` by default).
 *
 * - With JavaScript: picking a file checks its size and type, shows it at once, and uploads it to the
 *   page's own action (`intent=upload`, multipart field `image`) with a fetcher, without leaving the
 *   page; the answered url goes into the hidden input. The file input then has no name, so the file
 *   is not sent a second time with the form.
 * - Without JavaScript: the file input is part of the multipart form (field `imageFile`); the action
 *   uploads it first, then saves with the new url. The hidden input keeps the current url, so an
 *   edit without a new file keeps its image.
 */
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react'
import { useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { useToastFromData } from './toasts.tsx'
import { cn } from './ui/cn.ts'
import { ErrorList } from './forms.tsx'
import { Spinner } from './ui/spinner.tsx'
import { isStoredImageUrl, variantUrl } from '../../contract/images.ts'
import { IMAGE_ACCEPT, IMAGE_FILE_FIELD, checkImageFile, formatByteSize, useUploadMaxBytes, type UploadReply } from '../lib/uploads.ts'

export interface ImageUploadFieldProps {
  label: string
  /** The action that answers `intent=upload` with an UploadReply (the page's own path). */
  uploadAction: string
  /** The hidden input's name (the url posted with the form). */
  name?: string
  /** The file input's name without JavaScript. */
  fileName?: string
  /** The url to start with (edit, or a form sent back with errors). */
  defaultValue?: string
  /** With JavaScript only: no upload yet (docs/product.md, "Validation rules": until a name is given). */
  disabled?: boolean
  /** Shown under the picker while `disabled`. */
  disabledHint?: string
  errors?: readonly string[] | null
  /** The url after each successful upload. */
  onChange?: (url: string) => void
  /** True while an upload is in flight (a form should not be saved meanwhile). */
  onPendingChange?: (isPending: boolean) => void
  /** Size of the square preview, in CSS pixels. */
  previewSize?: number
}

/** The url to show for a stored image in a `size`-pixel box: a narrower variant when there is one. */
function previewSrc(url: string, size: number): string {
  if (!isStoredImageUrl(url)) return url
  return variantUrl(url, size * 2 <= 256 ? 256 : 512)
}

/** The image field: preview ("No Image" when empty), file picker, hidden url input (see the module comment). */
export function ImageUploadField({
  label,
  uploadAction,
  name = 'image',
  fileName = IMAGE_FILE_FIELD,
  defaultValue = '',
  disabled = false,
  disabledHint,
  errors,
  onChange,
  onPendingChange,
  previewSize = 128,
}: ImageUploadFieldProps) {
  const isHydrated = useHydrated()
  const maxBytes = useUploadMaxBytes()
  const fetcher = useFetcher<UploadReply>()
  const inputId = useId()
  const [url, setUrl] = useState(defaultValue)
  const [localPreview, setLocalPreview] = useState<string | null>(null)
  const [clientError, setClientError] = useState<string | null>(null)
  const isUploading = fetcher.state !== 'idle'
  const reply = fetcher.state === 'idle' ? fetcher.data : undefined

  // Each answer is a new object: the field's own state follows it once per answer, adjusted while
  // rendering (react.dev, "Adjusting some state when a prop changes"); the parent hears of a new url
  // from an effect, since a parent's state must not change while this component renders.
  const [handledReply, setHandledReply] = useState(reply)
  if (reply && reply !== handledReply) {
    setHandledReply(reply)
    setLocalPreview(null)
    if (reply.url) {
      setUrl(reply.url)
      setClientError(null)
    } else {
      setClientError(reply.error)
    }
  }
  const announceUrl = useEffectEvent((uploaded: string) => onChange?.(uploaded))
  useEffect(() => {
    if (reply?.url) announceUrl(reply.url)
  }, [reply])

  const announcePending = useEffectEvent((pending: boolean) => onPendingChange?.(pending))
  useEffect(() => announcePending(isUploading), [isUploading])
  // Object URLs hold the file in memory until revoked.
  useEffect(() => (localPreview ? () => URL.revokeObjectURL(localPreview) : undefined), [localPreview])
  // One toast per answer: the object's identity is what useToastFromData keys on.
  const errorToast = useMemo(() => (reply?.error ? ({ type: 'error', message: reply.error } as const) : null), [reply])
  useToastFromData(errorToast)

  const isDisabled = isHydrated && disabled
  const messages = [...(clientError ? [clientError] : []), ...(errors ?? []).filter((e) => e !== clientError)]
  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`
  const shown = localPreview ?? (url ? previewSrc(url, previewSize) : '')

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input type="hidden" name={name} value={url} />
      <div className="flex flex-wrap items-center gap-4">
        <div
          className="relative flex shrink-0 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50"
          style={{ width: previewSize, height: previewSize }}
        >
          {shown ? (
            <img
              src={shown}
              alt={`Preview of the ${label.toLowerCase()}`}
              width={previewSize}
              height={previewSize}
              className="size-full object-contain"
            />
          ) : (
            <span className="text-sm text-slate-500">No Image</span>
          )}
          {isUploading ? (
            <span className="absolute inset-0 flex items-center justify-center bg-white/70">
              <Spinner size={28} label="Uploading image" />
            </span>
          ) : null}
        </div>
        <div className="min-w-0 flex-1">
          <input
            id={inputId}
            type="file"
            accept={IMAGE_ACCEPT}
            name={isHydrated ? undefined : fileName}
            disabled={isDisabled || isUploading}
            aria-invalid={messages.length > 0 || undefined}
            aria-describedby={cn(hintId, messages.length > 0 && errorId)}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              if (!file) return
              const problem = checkImageFile(file, maxBytes)
              setClientError(problem)
              if (problem) {
                event.currentTarget.value = ''
                return
              }
              setLocalPreview(URL.createObjectURL(file))
              const formData = new FormData()
              formData.set('intent', 'upload')
              formData.set('image', file, file.name)
              fetcher.submit(formData, { method: 'post', action: uploadAction, encType: 'multipart/form-data' })
            }}
            className={cn(
              'block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-brand file:px-4 file:font-semibold file:text-slate-900 hover:file:bg-brand-dark',
              'disabled:cursor-not-allowed disabled:opacity-60 disabled:file:bg-slate-200 disabled:file:text-slate-500',
            )}
          />
          <p id={hintId} className="mt-1 text-xs text-slate-500">
            {isDisabled && disabledHint
              ? disabledHint
              : isHydrated
                ? `JPEG, PNG, WebP, AVIF or GIF, ${formatByteSize(maxBytes)} at most. It is uploaded as soon as you pick it.`
                : `JPEG, PNG, WebP, AVIF or GIF, ${formatByteSize(maxBytes)} at most. It is uploaded when you submit.`}
          </p>
          <ErrorList id={errorId} errors={messages} role="alert" />
        </div>
      </div>
    </div>
  )
}
