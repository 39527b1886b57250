import type { Toast } from '../.server/session.ts'
export function Toasts({ toast }: { toast: Toast | null }) {
  return toast ? <div role="status">{toast.message}</div> : null
}
