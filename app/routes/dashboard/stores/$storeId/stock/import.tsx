/**
 * /dashboard/stores/:storeId/stock/import (admin or staff; docs/store-stock-csv.md): one store's
 * stock from a CSV file, in the two steps of the product import (docs/product-csv.md). Each is a plain
 * multipart POST, so both work without JavaScript (docs/decisions/0007-progressive-enhancement.md);
 * with JavaScript React Router sends them without a page load.
 *
 * 1. "Check file" (`intent=check`, field `file`, at most STOCK_CSV_MAX_BYTES: a larger body is refused
 *    with 413 before the API is called): the API's dry run. The page lists the rows that change the
 *    stock (before → after) and every row error as line, column and message; nothing is written. A file
 *    the API cannot read at all (not UTF-8, not CSV) is said under the file field.
 * 2. "Apply" (`intent=apply`, shown only when the check found no error and something to change): the
 *    page posts back the checked file's text (field `csv`), which the API checks again and writes in
 *    one transaction. Success redirects here with the counts in the address (`?changed=&unchanged=`)
 *    and a toast, so a reload never applies twice; a refusal (the catalogue changed since the check)
 *    is said with its rows' errors.
 *
 * Tables wrap their cells (`table-fixed`, `break-words`), so nothing scrolls sideways at 360 px.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/import'
import { listStores } from '../../../../../.server/api/store.ts'
import { applyStockImport, checkStockImport, type StockImportAnswer } from '../../../../../.server/api/stock-csv.ts'
import { readAdminForm } from '../../../../../.server/admin-form.ts'
import { requireStaff, requireUser } from '../../../../../.server/auth.ts'
import { getSession } from '../../../../../.server/context.ts'
import { throwFailure } from '../../../../../.server/failure.ts'
import { failedFormReply, invalidFormReply, readText, type FormReply } from '../../../../../.server/form.ts'
import { redirectWithToast } from '../../../../../.server/toast.ts'
import { apiOf } from '../../../../../.server/api-context.ts'
import { RoleGuard } from '../../../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../../../components/error-boundary.tsx'
import { ErrorList, FormAlert } from '../../../../../components/forms.tsx'
import { SHOP_NAME } from '../../../../../components/header.tsx'
import { buttonClassName } from '../../../../../components/ui/button.tsx'
import { cn } from '../../../../../components/ui/cn.ts'
import { useSchemaForm } from '../../../../../components/use-schema-form.ts'
import { countLabel } from '../../../../../lib/plural.ts'
import { stockHref } from '../../../../../lib/schemas/store.ts'
import {
  STOCK_CSV_MAX_BYTES,
  STOCK_IMPORT_TOO_LARGE,
  StockImportApplyFormSchema,
  StockImportCheckFormSchema,
  stockExportHref,
  stockImportHref,
} from '../../../../../lib/schemas/stock-csv.ts'
import { formatByteSize, MULTIPART_OVERHEAD_BYTES } from '../../../../../../contract/file.ts'
import { STOCK_CSV_COLUMNS } from '../../../../../../contract/stock-csv.ts'
import { STOCK_MAX } from '../../../../../../contract/location.ts'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Import stock${loaderData?.store ? ` of ${loaderData.store.name}` : ''} | ${SHOP_NAME}` },
  { name: 'robots', content: 'noindex' },
]

/** The counts of a finished apply, read back from the address it redirected to (absent: none). */
function readApplied(search: URLSearchParams): { changed: number; unchanged: number } | null {
  const read = (key: string) => {
    const n = Number.parseInt(search.get(key) ?? '', 10)
    return Number.isSafeInteger(n) && n >= 0 ? n : null
  }
  const [changed, unchanged] = [read('changed'), read('unchanged')]
  return changed === null || unchanged === null ? null : { changed, unchanged }
}

/** The guard's decision and, for an admin or staff, the store (404 when unknown) and a finished apply's counts. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) return data({ isStaff: false, store: null, applied: null }, { status: 403 })
  const stores = await listStores(api, getSession(context))
  if (!stores.ok) throwFailure(stores)
  const store = stores.data.find((s) => s._id === params.storeId)
  if (!store) throw data('Store not found', { status: 404, statusText: 'Store not found' })
  return data({ isStaff: true, store: { _id: store._id, name: store.name }, applied: readApplied(url.searchParams) })
}

/**
 * The answer of a check (or of a refused apply): the form's reply, the file's name, the API's answer
 * and, after a clean check, the file's text for the Apply form.
 */
export type StockImportReply = FormReply & {
  intent: 'check' | 'apply'
  fileName: string
  answer: StockImportAnswer | null
  csv: string | null
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, {
    staff: true,
    // The apply posts the file's text back: the larger of the two bodies.
    multipartMaxBytes: STOCK_CSV_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
    tooLargeMessage: STOCK_IMPORT_TOO_LARGE,
  })
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent') === 'apply' ? 'apply' : 'check'
  const storeId = params.storeId

  if (intent === 'check') {
    const submission = parseWithZod(formData, { schema: StockImportCheckFormSchema })
    const extra = { intent, fileName: '', answer: null, csv: null }
    if (submission.status !== 'success') return invalidFormReply(submission, { extra, hideFields: ['file'] })
    const { file } = submission.value
    const result = await checkStockImport(api, session, storeId, file)
    if (!result.ok)
      return failedFormReply(submission, result, { fields: ['file'], extra: { ...extra, fileName: file.name }, hideFields: ['file'] })
    const applicable = result.data.errorCount === 0 && result.data.counts.changed > 0
    const reply: StockImportReply = {
      result: submission.reply({ hideFields: ['file'] }),
      toast: null,
      intent,
      fileName: file.name,
      answer: result.data,
      csv: applicable ? await file.text() : null,
    }
    return data(reply)
  }

  const submission = parseWithZod(formData, { schema: StockImportApplyFormSchema })
  const fileName = readText(formData, 'fileName').slice(0, 200)
  const extra = { intent, fileName, answer: null, csv: null }
  if (submission.status !== 'success') return invalidFormReply(submission, { extra, hideFields: ['csv'] })
  const file = new File([submission.value.csv], fileName || 'stock.csv', { type: 'text/csv' })
  const result = await applyStockImport(api, session, storeId, file)
  if (!result.ok) {
    // A row that does not apply comes back as an issue "line 7, stock": shown as the check's table.
    const errors = result.issues.flatMap((issue) => {
      const match = /^line (\d+)(?:, (.*))?$/.exec(issue.path)
      return match ? [{ line: Number(match[1]), column: match[2] ?? '', message: issue.message }] : []
    })
    const answer: StockImportAnswer | null =
      errors.length > 0
        ? { applied: false, counts: { rows: 0, changed: 0, unchanged: 0 }, changes: [], errors, errorCount: errors.length }
        : null
    return failedFormReply(submission, result, { extra: { ...extra, answer }, hideFields: ['csv'] })
  }
  const { changed, unchanged } = result.data.counts
  const search = new URLSearchParams({ changed: String(changed), unchanged: String(unchanged) })
  return redirectWithToast(session, `${stockImportHref(storeId)}?${search}`, {
    type: 'success',
    message: `Stock imported: ${countLabel(changed, 'product')} changed, ${unchanged} unchanged`,
  })
}

export default function StockImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { isStaff, store, applied } = loaderData
  const reply = actionData && 'answer' in actionData ? (actionData as StockImportReply) : null
  return (
    <RoleGuard allowed={isStaff}>
      {store ? (
        <section className="p-4 md:p-6">
          <p className="mb-1 text-sm">
            <Link to={stockHref(store._id, {})} className="font-semibold text-accent hover:underline">
              ‹ Stock of {store.name}
            </Link>
          </p>
          <h1 className="mb-3 text-lg font-semibold break-words text-slate-900">Import stock of {store.name} (CSV)</h1>
          {applied && !reply ? <AppliedSummary counts={applied} /> : null}
          <FileFormat storeId={store._id} />
          <CheckForm reply={reply?.intent === 'check' ? reply : null} />
          {reply?.answer ? <CheckResult reply={reply} /> : null}
          {reply?.intent === 'apply' && !reply.answer ? <ApplyRefused reply={reply} /> : null}
        </section>
      ) : null}
    </RoleGuard>
  )
}

function AppliedSummary({ counts }: { counts: { changed: number; unchanged: number } }) {
  return (
    <div
      data-card="stock-import-summary"
      role="status"
      className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
    >
      <p className="font-semibold">Stock imported</p>
      <p>
        {countLabel(counts.changed, 'product')} changed, {counts.unchanged} unchanged.
      </p>
    </div>
  )
}

/** What the file holds, in short (the whole format: docs/store-stock-csv.md). */
function FileFormat({ storeId }: { storeId: string }) {
  return (
    <details data-card="stock-import-format" className="mb-4 rounded-xl border border-slate-200 bg-white p-3 text-sm text-slate-700">
      <summary className="cursor-pointer font-semibold text-slate-800">The file format</summary>
      <p className="mt-2">
        A CSV file (UTF-8, header row first, at most {formatByteSize(STOCK_CSV_MAX_BYTES)}), one product a row, found by <code>sku</code>{' '}
        (or by <code>id</code> when it has no SKU). Columns: <code className="break-words">{STOCK_CSV_COLUMNS.join(', ')}</code>; only{' '}
        <code>sku</code> and <code>stock</code> are needed. Stock is a whole number of units from 0 to {STOCK_MAX.toLocaleString('en-IN')}.
        Products left out of the file keep their stock.
      </p>
      <p className="mt-2">
        The easiest start is{' '}
        <a href={stockExportHref(storeId)} className="font-semibold text-accent underline" download>
          this store&apos;s export
        </a>
        : it imports back unchanged.
      </p>
    </details>
  )
}

function CheckForm({ reply }: { reply: StockImportReply | null }) {
  const navigation = useNavigation()
  const isChecking = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'check'
  const [form, fields] = useSchemaForm('stock-import-check', StockImportCheckFormSchema, reply?.result)
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
      <p className="text-xs text-slate-500">Checking writes nothing: it lists every change and every error first.</p>
    </Form>
  )
}

/** The dry run's answer: the counts, the rows to change, every error, and Apply when there is no error. */
function CheckResult({ reply }: { reply: StockImportReply }) {
  const { counts, changes, errors, errorCount } = reply.answer!
  return (
    <div data-card="stock-import-result" className="grid gap-2 rounded-xl border border-slate-200 bg-white p-3">
      <h2 className="text-base font-semibold break-words text-slate-900">
        {reply.intent === 'apply' ? 'The import was refused: nothing was written' : `Checked ${reply.fileName || 'the file'}`}
      </h2>
      {reply.intent === 'check' ? (
        <p className="text-sm text-slate-700" role="status">
          {countLabel(counts.rows, 'row')}: {counts.changed} to change, {counts.unchanged} unchanged;{' '}
          <strong>{countLabel(errorCount, 'error')}</strong>.
        </p>
      ) : null}
      {errors.length > 0 ? (
        <>
          <p className="text-sm text-red-800" role="alert">
            Nothing was written. Fix these rows and check the file again
            {errorCount > errors.length ? ` (the first ${errors.length} of ${errorCount} errors are listed)` : ''}.
          </p>
          <table className="w-full table-fixed text-left text-sm" aria-label="Errors">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="w-12 px-2 py-1">
                  Line
                </th>
                <th scope="col" className="w-20 px-2 py-1">
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
      {changes.length > 0 ? (
        <table className="w-full table-fixed text-left text-sm" aria-label="Changes">
          <caption className="mb-1 text-left text-sm text-slate-700">
            {counts.changed > changes.length ? `The first ${changes.length} of ${counts.changed} changes` : 'Changes'}
          </caption>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1">
                Product
              </th>
              <th scope="col" className="w-16 px-2 py-1 text-right">
                Now
              </th>
              <th scope="col" className="w-16 px-2 py-1 text-right">
                New
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.productId} data-sku={c.sku} className="border-t border-slate-100 align-top">
                <td className="px-2 py-1 break-words">
                  {c.name}
                  {c.sku ? <span className="block text-xs text-slate-500">{c.sku}</span> : null}
                </td>
                <td className="px-2 py-1 text-right tabular-nums">{c.before}</td>
                <td className="px-2 py-1 text-right font-semibold tabular-nums">{c.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {reply.intent === 'check' && errorCount === 0 && counts.changed === 0 ? (
        <p className="text-sm text-slate-700">Nothing to change: the file sets the stock this store has.</p>
      ) : null}
      {reply.csv ? <ApplyForm csv={reply.csv} fileName={reply.fileName} changed={counts.changed} /> : null}
    </div>
  )
}

function ApplyForm({ csv, fileName, changed }: { csv: string; fileName: string; changed: number }) {
  const navigation = useNavigation()
  const isApplying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'apply'
  return (
    <Form method="post" encType="multipart/form-data" className="grid gap-2">
      <input type="hidden" name="intent" value="apply" />
      <input type="hidden" name="fileName" value={fileName} />
      <textarea name="csv" defaultValue={csv} hidden readOnly aria-hidden="true" tabIndex={-1} />
      <p className="text-sm text-slate-700">No errors. Apply writes the {countLabel(changed, 'change')} in one transaction.</p>
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

/** An apply refused without row errors (the file could not be read, the store is gone). */
function ApplyRefused({ reply }: { reply: StockImportReply }) {
  const messages = [...(reply.result.error?.[''] ?? []), ...(reply.result.error?.csv ?? [])]
  return (
    <div data-card="stock-import-result" role="alert" className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold">The import was not applied</p>
      <ErrorList errors={messages} />
      <p className="mt-1">Check the file again, then apply.</p>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
