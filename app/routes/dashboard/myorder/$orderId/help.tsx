/**
 * /dashboard/myorder/:orderId/help (docs/help-after-delivery.md): "Get help" with a delivered order
 * within the window. Each line has its own form: what is wrong (missing, damaged, wrong item,
 * expired), how many units (up to those not reported yet), an optional note and an optional photo.
 * The forms are plain multipart POSTs (no JavaScript needed): the photo goes up through
 * `order-issue/photo` (the upload path, stored as WebP), then the report; the answer is a redirect to
 * the order page with the outcome as a toast ("Refunded ₹x to your UPI", "We'll review this within
 * 24 hours"). A refusal comes back here as an error toast. Another shopper's order is a 404.
 */
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/help'
import * as issueApi from '../../../../.server/api/order-issue.ts'
import { apiOf } from '../../../../.server/api-context.ts'
import { requireUser } from '../../../../.server/auth.ts'
import { getSession } from '../../../../.server/context.ts'
import { env } from '../../../../.server/env.ts'
import { throwFailure } from '../../../../.server/failure.ts'
import { readText, tryReadForm } from '../../../../.server/form.ts'
import { redirectWithToast } from '../../../../.server/toast.ts'
import { GeneralErrorBoundary } from '../../../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../../../components/header.tsx'
import { Button } from '../../../../components/ui/button.tsx'
import { useIsPending } from '../../../../components/forms.tsx'
import { formatOrderTime } from '../../../../lib/order-status.ts'
import { IMAGE_ACCEPT, imageTooLargeMessage, MULTIPART_OVERHEAD_BYTES } from '../../../../lib/uploads.ts'
import {
  ISSUE_KIND_LABELS,
  ISSUE_KINDS,
  ISSUE_NOTE_MAX,
  ReportIssueSchema,
  type IssueOptions,
} from '../../../../../contract/order-issue.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Help with order ${loaderData.help.orderNumber}` : 'Help'} | ${SHOP_NAME}` },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const result = await issueApi.issueOptions(apiOf(context), getSession(context), params.orderId)
  if (!result.ok) throwFailure(result)
  return data({ help: result.data }, { headers: { 'Cache-Control': 'no-store' } })
}

/** One line's report: upload the photo when one was chosen, then report; the outcome as a toast on the order page. */
export async function action({ context, params, request }: Route.ActionArgs) {
  requireUser(context, request)
  const api = apiOf(context)
  const session = getSession(context)
  const helpPath = `/dashboard/myorder/${encodeURIComponent(params.orderId)}/help`
  const fail = (message: string) => redirectWithToast(session, helpPath, { type: 'error', message })
  const read = await tryReadForm(request, {
    multipartMaxBytes: env.uploadMaxBytes + MULTIPART_OVERHEAD_BYTES,
    tooLargeMessage: imageTooLargeMessage(env.uploadMaxBytes),
  })
  if (!read.ok) return fail(read.message)
  const form = read.formData
  const units = readText(form, 'units')
  const parsed = ReportIssueSchema.safeParse({
    orderId: params.orderId,
    lineId: readText(form, 'lineId'),
    kind: readText(form, 'kind'),
    units: /^\d{1,3}$/.test(units) ? Number(units) : units,
    note: readText(form, 'note'),
  })
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'Check the form')
  let photo: string | undefined
  const file = form.get('photo')
  if (file instanceof File && file.size > 0) {
    if (file.size > env.uploadMaxBytes) return fail(imageTooLargeMessage(env.uploadMaxBytes))
    const uploaded = await issueApi.uploadIssuePhoto(api, session, file)
    if (!uploaded.ok) return fail(uploaded.message)
    photo = uploaded.data.url
  }
  const result = await issueApi.reportIssue(api, session, { ...parsed.data, ...(photo ? { photo } : {}) })
  if (!result.ok) return fail(result.message)
  return redirectWithToast(session, `/dashboard/myorder/${encodeURIComponent(result.data.orderId)}`, {
    type: 'success',
    message: result.message,
  })
}

export default function HelpPage({ loaderData }: Route.ComponentProps) {
  const { help } = loaderData
  const orderPath = `/dashboard/myorder/${help.orderId}`
  const open = help.open && help.lines.some((l) => l.unitsLeft > 0)
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <Link to={orderPath} className="text-sm font-semibold text-accent hover:underline">
        ‹ Order {help.orderNumber}
      </Link>
      <h1 className="text-lg font-semibold text-slate-900">Get help with order {help.orderNumber}</h1>
      {help.open && help.openUntil ? (
        <p className="text-sm text-slate-600">
          Tell us what was wrong, item by item, until {formatOrderTime(help.openUntil)}. Small refunds are made at once.
        </p>
      ) : (
        <p role="status" className="text-sm text-slate-700">
          {help.openUntil
            ? 'The time to report a problem with this order has passed.'
            : 'Problems can be reported once the order is delivered.'}
        </p>
      )}
      {open ? (
        <ul aria-label="Items" className="grid gap-3">
          {help.lines.map((line) => (
            <li key={line.lineId} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
              <LineForm line={line} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

/** One line's form: kind, units, note, photo. A line with nothing left to report says so. */
function LineForm({ line }: { line: IssueOptions['lines'][number] }) {
  const isPending = useIsPending()
  const id = (name: string) => `${name}-${line.lineId}`
  return (
    <Form method="post" encType="multipart/form-data" aria-label={`Report ${line.name}`} className="grid gap-2 text-sm">
      <p className="font-medium break-words text-slate-900">
        {line.name}
        {line.unit ? <span className="font-normal text-slate-600"> · {line.unit}</span> : null}
        <span className="font-normal text-slate-600"> · {line.quantity} delivered</span>
      </p>
      {line.unitsLeft === 0 ? (
        <p className="text-slate-600">Reported already.</p>
      ) : (
        <>
          <input type="hidden" name="lineId" value={line.lineId} />
          <div className="flex flex-wrap gap-3">
            <label className="grid gap-1" htmlFor={id('kind')}>
              What is wrong
              <select
                id={id('kind')}
                name="kind"
                required
                defaultValue="missing"
                className="min-h-11 rounded-lg border border-slate-300 bg-white px-2"
              >
                {ISSUE_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {ISSUE_KIND_LABELS[kind]}
                  </option>
                ))}
              </select>
            </label>
            <label className="grid gap-1" htmlFor={id('units')}>
              Units
              <select id={id('units')} name="units" defaultValue="1" className="min-h-11 rounded-lg border border-slate-300 bg-white px-2">
                {Array.from({ length: line.unitsLeft }, (_, i) => (
                  <option key={i + 1} value={String(i + 1)}>
                    {i + 1}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="grid gap-1" htmlFor={id('note')}>
            Note (optional)
            <textarea
              id={id('note')}
              name="note"
              maxLength={ISSUE_NOTE_MAX}
              rows={2}
              className="w-full rounded-lg border border-slate-300 p-2"
            />
          </label>
          <label className="grid min-w-0 gap-1" htmlFor={id('photo')}>
            Photo (optional)
            <input id={id('photo')} name="photo" type="file" accept={IMAGE_ACCEPT} className="max-w-full min-w-0" />
          </label>
          <div>
            <Button type="submit" disabled={isPending}>
              Report {line.name}
            </Button>
          </div>
        </>
      )}
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
