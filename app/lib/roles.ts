/**
 * Roles: the role value ADMIN; any other value (or none) is a normal user. Pages
 * decide what to show with these; the API enforces the role on every admin write by itself
 * (docs/decisions/0008-catalogue-writes.md, "Guard first").
 */

/** Verbatim from the original app: what a non-admin sees on an admin page (and the toast of a refused admin form). */
export const NO_PERMISSION_MESSAGE = 'Do not have permission'

/** True for the role value ADMIN only. */
export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'ADMIN'
}
