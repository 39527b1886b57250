/** A small spinning ring in the current text colour. With `label` it is announced as a status. */
import { cn } from './cn.ts'

export function Spinner({ size = 20, label, className }: { size?: number; label?: string; className?: string }) {
  const ring = (
    <svg
      className={cn('animate-spin motion-reduce:animate-none', className)}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
  if (!label) return ring
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  )
}
