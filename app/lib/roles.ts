/**
 * Roles (docs/product.md, "Roles and permissions"): ADMIN does everything; STAFF runs the order desk
 * and the stores' stock only; any other value (or none) is a normal user. Pages decide what to show with these; the API enforces the role on every
 * admin write by itself (docs/decisions/0008-catalogue-writes.md, "Guard first").
 */

/** What a non-admin sees on an admin page (and the toast of a refused admin form), verbatim. */
export const NO_PERMISSION_MESSAGE = 'Do not have permission'

/** True for the role value ADMIN only. */
export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'ADMIN'
}

/** True for the roles that run the order desk and the stores' stock: ADMIN and STAFF. */
export function isStaffRole(role: string | null | undefined): boolean {
  return role === 'ADMIN' || role === 'STAFF'
}
