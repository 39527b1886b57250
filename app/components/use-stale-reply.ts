/**
 * Messages follow the form's state (docs/product.md, "Forms in general"): what the server
 * answered to a form's last submission (its messages, its error toast) stands only until the shopper
 * changes that form or sends it again. Without JavaScript every submission renders a fresh page, so
 * nothing is left to clear; with it the page stays, and this tells it when the answer went stale.
 */
import { useEffect, useState } from 'react'

/** The name Conform gives the buttons of its control intents (validate, insert, remove, …): @conform-to/dom `INTENT`. */
const CONFORM_INTENT = '__intent__'

/** The form an event is about: the form itself (submit) or the form of the field it came from (`form=` attributes count). */
function formOf(target: EventTarget | null): HTMLFormElement | null {
  if (target instanceof HTMLFormElement) return target
  const form = (target as { form?: unknown } | null)?.form
  return form instanceof HTMLFormElement ? form : null
}

/** True for a submit Conform makes only to check a field (nothing about the form changed). */
function isValidationOnly(event: Event): boolean {
  const submitter = (event as SubmitEvent).submitter
  if (!(submitter instanceof HTMLButtonElement) || submitter.name !== CONFORM_INTENT) return false
  try {
    return (JSON.parse(submitter.value) as { type?: unknown }).type === 'validate'
  } catch {
    return false
  }
}

/**
 * True once the form with id `formId` has been changed (an `input` or `change` event of one of its
 * fields) or submitted again since `reply` (the action's answer, a new object per submission)
 * arrived; false again for the next reply. Always false without a form id or a reply.
 */
export function useIsStale(formId: string | null | undefined, reply: unknown): boolean {
  const [staleReply, setStaleReply] = useState<unknown>(null)
  useEffect(() => {
    if (!formId || reply === null || reply === undefined) return
    const onEvent = (event: Event) => {
      if (formOf(event.target)?.id !== formId) return
      if (event.type === 'submit' && isValidationOnly(event)) return
      setStaleReply(reply)
    }
    const types = ['input', 'change', 'submit'] as const
    // Capture: React Router's <Form> stops nothing, but a field's own handler might.
    for (const type of types) document.addEventListener(type, onEvent, true)
    return () => {
      for (const type of types) document.removeEventListener(type, onEvent, true)
    }
  }, [formId, reply])
  return reply !== null && reply !== undefined && staleReply === reply
}
