/**
 * /dashboard/product/import (admin; docs/product-csv.md: the file format, the dry run and the apply;
 * docs/decisions/0023-catalogue-import.md). Two steps, each a plain POST, so both work without
 * JavaScript (docs/decisions/0007-progressive-enhancement.md):
 *
 * 1. "Check file" (`intent=check`, multipart field `file`, at most CSV_MAX_BYTES: a larger body is
 *    refused with 413 before the API is called): the API's dry run. The page shows how many rows
 *    would be created, updated or left unchanged and every error as line, column and message; nothing
 *    is written.
 * 2. "Apply" (`intent=apply`, shown only when the check found no error): posts the checked upload's id
 *    (the API keeps the checked file for a day), which the API writes in one transaction after
 *    checking it again. Success redirects here with the counts in the address
 *    (`?created=&updated=&unchanged=`) and a toast, so a reload never applies twice; a refusal (the
 *    catalogue changed since the check, the upload expired) is said with its rows' errors.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/import'
import { applyProductImport, checkProductImport, type ImportAnswer } from '../../../.server/api/product-admin.ts'
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

export async function loader({ context, url }: Route.LoaderArgs) {
  await requireAdmin(context, url)
  return data({ applied: readApplied(url.searchParams) })
}

/** The answer of a check (or of a refused apply): the form's reply, the file's name and the API's answer. */
export type ImportReply = FormReply & { intent: 'check' | 'apply'; fileName: string; answer: ImportAnswer | null }

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
    const extra = { intent, fileName: '', answer: null }
    if (submission.status !== 'success') return invalidFormReply(submission, { extra, hideFields: ['file'] })
    const { file } = submission.value
    const result = await checkProductImport(api, session, file)
    if (!result.ok)
      return failedFormReply(submission, result, { fields: ['file'], extra: { ...extra, fileName: file.name }, hideFields: ['file'] })
    const reply: ImportReply = {
      result: submission.reply({ hideFields: ['file'] }),
      toast: null,
      intent,
      fileName: file.name,
      answer: result.data,
    }
    return data(reply)
  }

  const submission = parseWithZod(formData, { schema: ImportApplyFormSchema })
  const fileName = readText(formData, 'fileName').slice(0, 200)
  const extra = { intent, fileName, answer: null }
  if (submission.status !== 'success') return invalidFormReply(submission, { extra })
  const result = await applyProductImport(api, session, submission.value.upload)
  if (!result.ok) {
    // A row that no longer applies comes back as an issue "line 7, mrp": shown as the check's table.
    const errors = result.issues.flatMap((issue) => {
      const match = /^line (\d+)(?:, (.*))?$/.exec(issue.path)
      return match ? [{ line: Number(match[1]), column: match[2] ?? '', message: issue.message }] : []
    })
    const answer: ImportAnswer | null =
      errors.length > 0
        ? { upload: '', applied: false, counts: { rows: 0, created: 0, updated: 0, unchanged: 0 }, errors, errorCount: errors.length }
        : null
    return failedFormReply(submission, result, { extra: { ...extra, answer } })
  }
  const { created, updated, unchanged } = result.data.counts
  const params = new URLSearchParams({ created: String(created), updated: String(updated), unchanged: String(unchanged) })
  return redirectWithToast(session, `${IMPORT_PATH}?${params}`, {
    type: 'success',
    message: `Import applied: ${created} created, ${updated} updated, ${unchanged} unchanged`,
  })
}

export default function ProductImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData && 'answer' in actionData ? (actionData as ImportReply) : null
  return (
    <section className="p-4 md:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Import products (CSV)</h1>
        <Link to="/dashboard/product" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          Back to products
        </Link>
      </div>
      {loaderData.applied && !reply ? <AppliedSummary counts={loaderData.applied} /> : null}
      <FileFormat />
      <CheckForm reply={reply?.intent === 'check' ? reply : null} />
      {reply?.answer ? <CheckResult reply={reply} /> : null}
      {reply?.intent === 'apply' && !reply.answer ? <ApplyRefused reply={reply} /> : null}
    </section>
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

/** The dry run's answer: the counts, every error as line, column and message, and Apply when there is none. */
function CheckResult({ reply }: { reply: ImportReply }) {
  const answer = reply.answer!
  const { counts, errors, errorCount } = answer
  const clean = errorCount === 0 && reply.intent === 'check'
  return (
    <div data-card="import-result" className="rounded-xl border border-slate-200 bg-white p-3">
      <h2 className="text-base font-semibold text-slate-900">
        {reply.intent === 'apply' ? 'The import was refused: nothing was written' : `Checked ${reply.fileName || 'the file'}`}
      </h2>
      {reply.intent === 'check' ? (
        <p className="mt-1 text-sm text-slate-700" role="status">
          {countLabel(counts.rows, 'row')}: {counts.created} to create, {counts.updated} to update, {counts.unchanged} unchanged;{' '}
          <strong>{countLabel(errorCount, 'error')}</strong>.
        </p>
      ) : null}
      {errors.length > 0 ? (
        <>
          <p className="mt-2 text-sm text-red-800" role="alert">
            Nothing was written. Fix these rows and check the file again
            {errorCount > errors.length ? ` (the first ${errors.length} of ${errorCount} errors are listed)` : ''}.
          </p>
          <table className="mt-2 w-full table-fixed text-left text-sm" aria-label="Errors">
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
        </>
      ) : null}
      {clean ? <ApplyForm upload={answer.upload} fileName={reply.fileName} rows={counts.rows} /> : null}
    </div>
  )
}

function ApplyForm({ upload, fileName, rows }: { upload: string; fileName: string; rows: number }) {
  const navigation = useNavigation()
  const isApplying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'apply'
  return (
    <Form method="post" className="mt-3 grid gap-2">
      <input type="hidden" name="intent" value="apply" />
      <input type="hidden" name="upload" value={upload} />
      <input type="hidden" name="fileName" value={fileName} />
      <p className="text-sm text-slate-700">No errors. Apply writes all {countLabel(rows, 'row')} in one transaction.</p>
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

/** An apply refused without row errors (the upload expired or was applied already). */
function ApplyRefused({ reply }: { reply: ImportReply }) {
  const messages = [...(reply.result.error?.[''] ?? []), ...(reply.result.error?.upload ?? [])]
  return (
    <div data-card="import-result" role="alert" className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold">The import was not applied</p>
      <ErrorList errors={messages} />
      <p className="mt-1">Check the file again, then apply.</p>
    </div>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
