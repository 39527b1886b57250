/**
 * The "No Data" picture of an empty admin list (docs/product.md, "Category admin": an empty list shows
 * a No Data image). An inline SVG drawn for this project: no request, no CSP exception, and it
 * scales with its box. The caption is real text, so it is read and found by tests.
 */
import { cn } from './ui/cn.ts'

/** The picture with its caption (`message`, default "No Data"), centred in its box. */
export function NoData({ message = 'No Data', className }: { message?: string; className?: string }) {
  return (
    <figure className={cn('flex flex-col items-center justify-center gap-3 py-10 text-center', className)}>
      <svg viewBox="0 0 200 160" width="200" height="160" aria-hidden="true" className="h-auto w-40 max-w-full sm:w-48">
        {/* ground shadow */}
        <ellipse cx="100" cy="142" rx="70" ry="8" fill="#e2e8f0" />
        {/* open empty box */}
        <path
          d="M40 70 L100 50 L160 70 L160 125 L100 142 L40 125 Z"
          fill="#fef6d8"
          stroke="#e0ad17"
          strokeWidth="3"
          strokeLinejoin="round"
        />
        <path d="M40 70 L100 90 L160 70" fill="none" stroke="#e0ad17" strokeWidth="3" strokeLinejoin="round" />
        <path d="M100 90 L100 142" stroke="#e0ad17" strokeWidth="3" />
        {/* flaps */}
        <path d="M40 70 L22 52 L82 34 L100 50 Z" fill="#f8cb46" stroke="#e0ad17" strokeWidth="3" strokeLinejoin="round" />
        <path d="M160 70 L178 52 L118 34 L100 50 Z" fill="#f8cb46" stroke="#e0ad17" strokeWidth="3" strokeLinejoin="round" />
        {/* magnifier: searched, nothing found */}
        <circle cx="128" cy="104" r="15" fill="#ffffff" stroke="#64748b" strokeWidth="4" />
        <path d="M139 115 L152 128" stroke="#64748b" strokeWidth="6" strokeLinecap="round" />
        <path d="M122 98 L134 110 M134 98 L122 110" stroke="#94a3b8" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <figcaption className="text-base font-semibold text-slate-500">{message}</figcaption>
    </figure>
  )
}
