/**
 * /dashboard/product/import (admin; docs/product-csv.md: the file format, "Imports as jobs";
 * docs/decisions/0061-imports-as-jobs.md). Each step is a plain POST that starts a job on the API and
 * redirects to this page with the job in the address (`?job=<id>`), so both work without JavaScript
 * (docs/decisions/0007-progressive-enhancement.md) and a reload never starts a job twice:
 *
 * 1. "Check file" (`intent=check`, multipart field `file`, at most CSV_MAX_BYTES: a larger body is
 *    refused with 413 before the API is called): the API stores the file and queues its dry run.
 * 2. While a job runs the page shows a progress bar (rows done of total). With JavaScript the loader
 *    is revalidated every POLL_MS; without, the page refreshes itself every 2 s
 *    (`<meta http-equiv="refresh">` inside `<noscript>`, in the server's HTML only).
 * 3. A finished dry run shows how many rows would be created, updated or left unchanged and every
 *    error as line, column and message; nothing is written. Without an error, "Apply"
 *    (`intent=apply`, the dry run's job id) queues the apply, whose progress shows the same way.
 * 4. A finished apply redirects here with the counts in the address (`?created=&updated=&unchanged=`)
 *    and a toast; one the API stopped (the catalogue changed since the check) says why, with its rows'
 *    errors.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form, Link, redirect, useNavigation, useRevalidator } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/import'
import {
  getProductImportJob,
  startProductImportApply,
  startProductImportJob,
  type ImportAnswer,
  type ImportJob,
} from '../../../.server/api/product-admin.ts'
import { readAdminForm } from '../../../.server/admin-form.ts'
import { requireAdmin, requireUser } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { failedFormReply, invalidFormReply, readText, type FormReply } from '../../../.server/form.ts'
import { redirectWithToast } from '../../../.server/toast.ts'
import { AdminErrorBoundary } from '../../../components/admin-guard.tsx'
import { ErrorList, FormAlert } from '../../../components/forms.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { buttonClassName } from '../../../components/ui/button.tsx'
import { cn } from '../../../components/ui/cn.ts'
import { useSchemaForm } from '../../../components/use-schema-form.ts'
import { countLabel } from '../../../lib/plural.ts'
import { CSV_MAX_BYTES, IMPORT_TOO_LARGE, ImportApplyFormSchema, ImportCheckFormSchema } from '../../../lib/schemas/product-grid.ts'
import { formatByteSize, MULTIPART_OVERHEAD_BYTES } from '../../../../contract/file.ts'
import { apiOf } from '../../../.server/api-context.ts'
import { ImportJobIdSchema } from '../../../../contract/product-import.ts'

export const meta: Route.MetaFunction = () => [{ title: `Import products | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

const IMPORT_PATH = '/dashboard/product/import'

/** The counts of a finished apply, read back from the address it redirected to (absent: none). */
function readApplied(search: URLSearchParams): { created: number; updated: number; unchanged: number } | null {
  const read = (key: string) => {
    const n = Number.parseInt(search.get(key) ?? '', 10)
    return Number.isSafeInteger(n) && n >= 0 ? n : null
  }
  const [created, updated, unchanged] = [read('created'), read('updated'), read('unchanged')]
  return created === null || updated === null || unchanged === null ? null : { created, updated, unchanged }
}

/** How often the page asks for a running job's progress with JavaScript (ms). */
const POLL_MS = 1000
/** How often the page reloads itself without JavaScript while a job runs (s). */
const REFRESH_S = 2

/** The job named by `?job=`, read from the API; an unknown or malformed id is said, not thrown. */
export async function loader({ context, url }: Route.LoaderArgs) {
  await requireAdmin(context, url)
  const applied = readApplied(url.searchParams)
  const jobParam = url.searchParams.get('job')
  if (jobParam === null) return data({ applied, job: null, jobError: null })
  const jobId = ImportJobIdSchema.safeParse(jobParam)
  if (!jobId.success) return data({ applied, job: null, jobError: 'No such import: check the file again' }, { status: 404 })
  const session = getSession(context)
  const result = await getProductImportJob(apiOf(context), session, jobId.data)
  if (!result.ok) return data({ applied, job: null, jobError: result.message }, { status: result.status === 404 ? 404 : 200 })
  const job = result.data
  if (job.mode === 'apply' && job.status === 'done') {
    const { created, updated, unchanged } = job.counts
    const params = new URLSearchParams({ created: String(created), updated: String(updated), unchanged: String(unchanged) })
    return redirectWithToast(session, `${IMPORT_PATH}?${params}`, {
      type: 'success',
      message: `Import applied: ${created} created, ${updated} updated, ${unchanged} unchanged`,
    })
  }
  return data({ applied, job, jobError: null })
}

/** The reply of a refused check or apply: the form's reply and the intent. */
export type ImportReply = FormReply & { intent: 'check' | 'apply' }

export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, {
    multipartMaxBytes: CSV_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
    tooLargeMessage: IMPORT_TOO_LARGE,
  })
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent') === 'apply' ? 'apply' : 'check'

  if (intent === 'check') {
    const submission = parseWithZod(formData, { schema: ImportCheckFormSchema })
    if (submission.status !== 'success') return invalidFormReply(submission, { extra: { intent }, hideFields: ['file'] })
    const result = await startProductImportJob(api, session, submission.value.file)
    if (!result.ok) return failedFormReply(submission, result, { fields: ['file'], extra: { intent }, hideFields: ['file'] })
    return redirect(`${IMPORT_PATH}?job=${result.data.id}`)
  }

  const submission = parseWithZod(formData, { schema: ImportApplyFormSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { extra: { intent } })
  const result = await startProductImportApply(api, session, submission.value.jobId)
  if (!result.ok) return failedFormReply(submission, result, { extra: { intent } })
  return redirect(`${IMPORT_PATH}?job=${result.data.id}`)
}

export default function ProductImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData && 'intent' in actionData ? (actionData as ImportReply) : null
  const { job, jobError, applied } = loaderData
  return (
    <section className="p-4 md:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Import products (CSV)</h1>
        <Link to="/dashboard/product" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          Back to products
        </Link>
      </div>
      {applied && !job ? <AppliedSummary counts={applied} /> : null}
      {jobError ? (
        <div data-card="import-result" role="alert" className="mb-4 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {jobError}
        </div>
      ) : null}
      {job && (job.status === 'queued' || job.status === 'running') ? <JobProgress job={job} /> : null}
      {job?.status === 'done' && job.mode === 'dry-run' ? <CheckResult job={job} reply={reply?.intent === 'apply' ? reply : null} /> : null}
      {job?.status === 'failed' ? <JobFailed job={job} /> : null}
      <FileFormat />
      <CheckForm reply={reply?.intent === 'check' ? reply : null} />
    </section>
  )
}

/**
 * A running job's progress: a bar of rows done of total. With JavaScript the loader is revalidated
 * every POLL_MS while no navigation is under way; without, a refresh every REFRESH_S seconds, written
 * inside `<noscript>` and only into the server's HTML (a browser running scripts never reads it, and
 * a page drawn by the client has none).
 */
function JobProgress({ job }: { job: ImportJob }) {
  const hydrated = useHydrated()
  const { revalidate, state } = useRevalidator()
  const idle = useNavigation().state === 'idle' && state === 'idle'
  useEffect(() => {
    if (!idle) return
    const timer = setTimeout(() => void revalidate(), POLL_MS)
    return () => clearTimeout(timer)
  }, [idle, revalidate, job.rowsDone, job.status])
  const doing = job.mode === 'apply' ? 'Applying' : 'Checking'
  return (
    <div data-card="import-progress" className="mb-4 grid gap-2 rounded-xl border border-slate-200 bg-white p-3">
      {hydrated ? null : (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_S)} />
        </noscript>
      )}
      <h2 className="text-base font-semibold text-slate-900">
        {job.status === 'queued' ? `${doing} the file: waiting to start` : `${doing} the file…`}
      </h2>
      <progress className="h-3 w-full" aria-label={`${doing} rows`} max={Math.max(job.rowsTotal, 1)} value={job.rowsDone} />
      <p className="text-sm text-slate-700" role="status">
        {job.rowsTotal > 0 ? `${job.rowsDone} of ${countLabel(job.rowsTotal, 'row')} done` : 'Reading the file…'}
      </p>
      <p className="text-xs text-slate-500">This page updates by itself; you may leave it and come back to this address.</p>
    </div>
  )
}

/** A stopped job: why (the catalogue changed since the check, repeated failures), with its rows' errors. */
function JobFailed({ job }: { job: ImportJob }) {
  return (
    <div data-card="import-result" className="mb-4 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold" role="alert">
        {job.mode === 'apply' ? 'The import was stopped' : 'The check was stopped'}
      </p>
      {job.message ? <p className="mt-1">{job.message}</p> : null}
      {job.errors.length > 0 ? <ErrorTable errors={job.errors} /> : null}
    </div>
  )
}

function AppliedSummary({ counts }: { counts: { created: number; updated: number; unchanged: number } }) {
  return (
    <div
      data-card="import-summary"
      role="status"
      className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
    >
      <p className="font-semibold">Import applied</p>
      <p>
        {countLabel(counts.created, 'product')} created, {counts.updated} updated, {counts.unchanged} unchanged.
      </p>
    </div>
  )
}

/** What the file holds, in short (the whole format: docs/product-csv.md, "Columns"). */
function FileFormat() {
  return (
    <details data-card="import-format" className="mb-4 rounded-xl border border-slate-200 bg-white p-3 text-sm text-slate-700">
      <summary className="cursor-pointer font-semibold text-slate-800">The file format</summary>
      <p className="mt-2">
        A CSV file (UTF-8, header row first, at most {formatByteSize(CSV_MAX_BYTES)}), one product a row, upserted by <code>sku</code>: a
        new SKU creates a product, a known one updates it. Columns, in any order:{' '}
        <code className="break-words">
          sku, id, name, brand, unit, mrp, selling_price, stock, publish, categories, sub_categories, images, description, more_details
        </code>
        . Prices in rupees (<code>95.50</code>), stock in whole units of the default store, lists separated by <code>|</code>. A column left
        out keeps that field as it is.
      </p>
      <p className="mt-2">
        The easiest start is{' '}
        <a href="/dashboard/product/export" className="font-semibold text-accent underline">
          the export
        </a>
        : it imports back unchanged.
      </p>
    </details>
  )
}

function CheckForm({ reply }: { reply: ImportReply | null }) {
  const navigation = useNavigation()
  const isChecking = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'check'
  const [form, fields] = useSchemaForm('import-check', ImportCheckFormSchema, reply?.result)
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-3"
    >
      <input type="hidden" name="intent" value="check" />
      <div className="min-w-0">
        <label htmlFor={fields.file.id} className="mb-1 block text-sm font-medium text-slate-700">
          CSV file
        </label>
        <input
          {...getInputProps(fields.file, { type: 'file' })}
          key={fields.file.key}
          accept=".csv,text/csv"
          className="block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold"
        />
        <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
      </div>
      <FormAlert form={form} reply={reply} />
      <button
        type="submit"
        disabled={isChecking}
        aria-busy={isChecking || undefined}
        className={cn(buttonClassName({ variant: 'primary', size: 'sm' }), 'justify-self-start')}
      >
        {isChecking ? 'Checking…' : 'Check file'}
      </button>
      <p className="text-xs text-slate-500">Checking writes nothing: it lists what the import would do and every error first.</p>
    </Form>
  )
}

/** A finished dry run: the counts, every error as line, column and message, and Apply when there is none. */
function CheckResult({ job, reply }: { job: ImportJob; reply: ImportReply | null }) {
  const { counts, errors, errorCount } = job
  return (
    <div data-card="import-result" className="mb-4 rounded-xl border border-slate-200 bg-white p-3">
      <h2 className="text-base font-semibold text-slate-900">File checked</h2>
      <p className="mt-1 text-sm text-slate-700" role="status">
        {countLabel(counts.rows, 'row')}: {counts.created} to create, {counts.updated} to update, {counts.unchanged} unchanged;{' '}
        <strong>{countLabel(errorCount, 'error')}</strong>.
      </p>
      {errors.length > 0 ? (
        <>
          <p className="mt-2 text-sm text-red-800" role="alert">
            Nothing was written. Fix these rows and check the file again
            {errorCount > errors.length ? ` (the first ${errors.length} of ${errorCount} errors are listed)` : ''}.
          </p>
          <ErrorTable errors={errors} />
        </>
      ) : (
        <ApplyForm jobId={job.id} rows={counts.rows} reply={reply} />
      )}
    </div>
  )
}

/** Errors as a table of line, column and message. */
function ErrorTable({ errors }: { errors: ImportAnswer['errors'] }) {
  return (
    <table className="mt-2 w-full table-fixed text-left text-sm text-slate-800" aria-label="Errors">
      <thead className="bg-slate-50 text-slate-600">
        <tr>
          <th scope="col" className="w-14 px-2 py-1">
            Line
          </th>
          <th scope="col" className="w-28 px-2 py-1">
            Column
          </th>
          <th scope="col" className="px-2 py-1">
            Message
          </th>
        </tr>
      </thead>
      <tbody>
        {errors.map((e, i) => (
          <tr key={`${e.line}-${e.column}-${i}`} className="border-t border-slate-100 align-top">
            <td className="px-2 py-1 tabular-nums">{e.line}</td>
            <td className="px-2 py-1 break-words">{e.column || '(row)'}</td>
            <td className="px-2 py-1 break-words">{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function ApplyForm({ jobId, rows, reply }: { jobId: string; rows: number; reply: ImportReply | null }) {
  const navigation = useNavigation()
  const isApplying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'apply'
  const messages = [...(reply?.result.error?.[''] ?? []), ...(reply?.result.error?.jobId ?? [])]
  return (
    <Form method="post" className="mt-3 grid gap-2">
      <input type="hidden" name="intent" value="apply" />
      <input type="hidden" name="jobId" value={jobId} />
      <p className="text-sm text-slate-700">
        No errors. Apply writes all {countLabel(rows, 'row')}, a slice at a time, checking each row again as it goes.
      </p>
      {messages.length > 0 ? (
        <div role="alert" className="text-sm text-red-800">
          <ErrorList errors={messages} />
        </div>
      ) : null}
      <button
        type="submit"
        disabled={isApplying}
        aria-busy={isApplying || undefined}
        className={cn(buttonClassName({ variant: 'primary', size: 'sm' }), 'justify-self-start')}
      >
        {isApplying ? 'Applying…' : 'Apply'}
      </button>
    </Form>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
