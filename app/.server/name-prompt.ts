/**
 * The "Add your name" prompt's server side (docs/decisions/0054-phone-sign-in-pages.md): an account
 * made by phone sign-in has no name, and is asked for one later, never blocking (the profile and the
 * checkout show the prompt). Its two forms post to the page's own action with `intent`
 * `ADD_NAME_INTENT` (save the name) or `DISMISS_NAME_INTENT` (close the prompt until the next
 * sign-in, kept in the session).
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import * as userApi from './api/user.ts'
import type { Api } from './api-context.ts'
import { failedFormReply, invalidFormReply } from './form.ts'
import type { RequestSession, SessionUser } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { ADD_NAME_INTENT, DISMISS_NAME_INTENT, NameSchema } from '../lib/schemas/phone.ts'

/** Whether the prompt shows for `user`: no name yet, and not closed in this session. */
export function showsNamePrompt(session: RequestSession, user: Pick<SessionUser, 'name'>): boolean {
  return user.name.trim() === '' && !session.namePromptDismissed
}

/**
 * Handles the prompt's forms when `formData`'s intent is one of them (else null): a saved name
 * updates the session's summary (the header shows it) and goes back to `returnTo` with a toast; a
 * refused one comes back as the form's reply (intent `ADD_NAME_INTENT`); closing goes back to
 * `returnTo`.
 */
export async function handleNamePrompt(api: Api, session: RequestSession, formData: FormData, returnTo: string) {
  const intent = formData.get('intent')
  if (intent === DISMISS_NAME_INTENT) {
    session.dismissNamePrompt()
    return redirect(returnTo)
  }
  if (intent !== ADD_NAME_INTENT) return null
  const extra = { intent: ADD_NAME_INTENT } as const
  const submission = parseWithZod(formData, { schema: NameSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { extra })
  const result = await userApi.setName(api, session, submission.value.name)
  if (!result.ok) return failedFormReply(submission, result, { fields: ['name'], extra })
  session.setUser(userApi.toSessionUser(result.data))
  return redirectWithToast(session, returnTo, { type: 'success', message: result.message || 'Updated successfully' })
}
