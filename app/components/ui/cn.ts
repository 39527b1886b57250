/** Joins class names, skipping false, null, undefined and ''. For conditional Tailwind classes. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ')
}
