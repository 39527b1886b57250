/**
 * A grey placeholder block for loading states (spec section 9: 12 category tiles, 6 product cards).
 * Give it the final element's size so nothing moves when the content arrives (style.md).
 */
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none', className)} {...props} />
}
