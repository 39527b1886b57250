/**
 * The team at /dashboard/staff (docs/product.md, "Staff"), with JavaScript on and off:
 *
 * - an admin invites a new email as staff of a store; the invite mail says how to set a password; the
 *   new member sets one by the password-reset flow, signs in and reaches their store's order desk;
 *   another store's stock is read only to them;
 * - the admin moves them to another role, deactivates them (their open session ends at once, a new
 *   sign-in says "Contact to Admin") and activates them again; every change is on the audit trail;
 * - the admin's own card has no controls.
 */
import { expect, test, type Page } from '@playwright/test'
import {
  ADMIN,
  api,
  fillLogin,
  isJs,
  newUser,
  openAccountMenu,
  signInWithPassword,
  toast,
  waitForHydration,
  waitForMail,
} from './helpers.ts'
import { setPasswordByReset } from './rider-fixtures.ts'

/** The card of the member with `email` on /dashboard/staff. */
const card = (page: Page, email: string) => page.getByRole('list', { name: 'Team' }).getByRole('listitem').filter({ hasText: email })

/** The open invite dialog and its send button, ready to be pressed (after hydration with JavaScript). */
async function inviteDialog(page: Page, js: boolean) {
  const dialog = page.getByRole('dialog', { name: 'Invite to the team' })
  await expect(dialog).toBeVisible()
  const send = dialog.getByRole('button', { name: 'Send invite' })
  if (js) await waitForHydration(send)
  return { dialog, send }
}

test('an admin invites a staff member by email, who sets a password and reaches the order desk', async ({
  page,
  browser,
  request,
}, testInfo) => {
  // An invite, a mail round trip, a password reset and two sign-ins.
  test.slow()
  const js = isJs(testInfo)
  const member = newUser(testInfo, 'staff')
  await signInWithPassword(page, ADMIN)
  const menu = await openAccountMenu(page)
  await menu.getByRole('link', { name: 'Staff', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible()
  // The admin's own card: no role form, no deactivate.
  const own = card(page, ADMIN.email)
  await expect(own).toContainText('(you)')
  await expect(own.getByRole('button')).toHaveCount(0)
  await expect(own.getByRole('link')).toHaveCount(0)

  await page.getByRole('link', { name: 'Invite', exact: true }).click()
  const { dialog, send } = await inviteDialog(page, js)
  // A staff member needs a store: refused first, with the message on the field.
  await dialog.getByLabel('Email').fill(member.email)
  await send.click()
  await expect(dialog.getByText('Choose the store this staff member works in')).toBeVisible()
  const storeSelect = dialog.getByLabel('Store (staff and riders)')
  const storeName = (await storeSelect.locator('option').nth(1).textContent())!.trim()
  const storeId = (await storeSelect.locator('option').nth(1).getAttribute('value'))!
  const otherStoreId = (await storeSelect.locator('option').nth(2).getAttribute('value'))!
  await storeSelect.selectOption({ index: 1 })
  await dialog.getByLabel('Name (for a new account)').fill(member.name)
  const since = Date.now()
  await send.click()
  await expect(toast(page, `${member.email} invited as staff`)).toBeVisible()
  const invited = card(page, member.email)
  await expect(invited.locator('[data-field="role"]')).toHaveText('Staff')
  await expect(invited.locator('[data-field="store"]')).toHaveText(storeName)

  const mail = await waitForMail(member.email, since)
  expect(mail.subject).toBe('You are now staff of the store')
  expect(mail.text).toContain('Forgot password')

  await setPasswordByReset(request, member.email, member.password)
  const context = await browser.newContext({ javaScriptEnabled: js })
  try {
    const memberPage = await context.newPage()
    await signInWithPassword(memberPage, member)
    await memberPage.goto('/dashboard/orders')
    await expect(memberPage.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible()
    // Their store's desk: the store menu holds their store alone (docs/product.md, "Staff").
    const stores = memberPage.getByRole('main').getByLabel('Store')
    await expect(stores.locator('option')).toHaveText([storeName])
    // Another store's stock is read only; their own store's has its forms.
    await memberPage.goto(`/dashboard/stores/${otherStoreId}/stock`)
    await expect(memberPage.getByRole('note')).toHaveText('Read only: staff change the stock of their own store.')
    await expect(memberPage.getByRole('button', { name: 'Save' })).toHaveCount(0)
    await expect(memberPage.getByRole('link', { name: 'Import CSV' })).toHaveCount(0)
    await memberPage.goto(`/dashboard/stores/${storeId}/stock`)
    await expect(memberPage.getByRole('link', { name: 'Import CSV' })).toBeVisible()
    await expect(memberPage.getByRole('button', { name: 'Save' }).first()).toBeVisible()
    await expect(memberPage.getByRole('note')).toHaveCount(0)
    // Not an admin: the staff page is refused.
    expect((await memberPage.goto('/dashboard/staff'))?.status()).toBe(403)
  } finally {
    await context.close()
  }
})

test('an admin changes a member to admin, deactivates them (their session ends) and activates them again', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow()
  const js = isJs(testInfo)
  const member = newUser(testInfo, 'team')
  await api(request, '/user/register', { ...member, confirmPassword: member.password })
  // The member is signed in elsewhere before any change.
  const context = await browser.newContext({ javaScriptEnabled: js })
  try {
    const memberPage = await context.newPage()
    await signInWithPassword(memberPage, member)

    await signInWithPassword(page, ADMIN)
    await page.goto('/dashboard/staff?dialog=invite')
    const { dialog, send } = await inviteDialog(page, js)
    await dialog.getByLabel('Email').fill(member.email)
    await dialog.getByLabel('Role').selectOption('ADMIN')
    await send.click()
    await expect(toast(page, `${member.name} is now admin`)).toBeVisible()
    const row = card(page, member.email)
    await expect(row.locator('[data-field="role"]')).toHaveText('Admin')
    await expect(row.locator('[data-field="store"]')).toHaveText('Every store')

    // Back to staff in a store, with the card's own form.
    const save = row.getByRole('button', { name: `Save ${member.name}` })
    if (js) await waitForHydration(save)
    await row.locator('select[name="role"]').selectOption('STAFF')
    await row.locator('select[name="storeId"]').selectOption({ index: 1 })
    await save.click()
    await expect(toast(page, `${member.name} saved`)).toBeVisible()
    await expect(card(page, member.email).locator('[data-field="role"]')).toHaveText('Staff')

    await card(page, member.email)
      .getByRole('link', { name: `Deactivate ${member.name}` })
      .click()
    const confirm = page.getByRole('dialog', { name: `Deactivate ${member.name}?` })
    await confirm.getByRole('button', { name: 'Deactivate' }).click()
    await expect(toast(page, `${member.name} is deactivated`)).toBeVisible()
    await expect(card(page, member.email).locator('[data-field="status"]')).toHaveText('Inactive')

    // Their open session has ended: the next page is the sign-in page.
    await memberPage.goto('/dashboard/myorder')
    await expect(memberPage).toHaveURL(/\/login/)
    await fillLogin(memberPage, member.email, member.password)
    await expect(memberPage.getByRole('main').getByText('Contact to Admin').first()).toBeVisible()

    await card(page, member.email)
      .getByRole('link', { name: `Activate ${member.name}` })
      .click()
    await page
      .getByRole('dialog', { name: `Activate ${member.name}?` })
      .getByRole('button', { name: 'Activate' })
      .click()
    await expect(toast(page, `${member.name} is active again`)).toBeVisible()
    await signInWithPassword(memberPage, member)

    // Each change is on the audit trail, filtered to users.
    await page.goto('/dashboard/audit?entity=user')
    await expect(page.getByRole('main')).toContainText('Role granted')
    await expect(page.getByRole('main')).toContainText('Status changed')
  } finally {
    await context.close()
  }
})
