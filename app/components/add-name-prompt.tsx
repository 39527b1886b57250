/**
 * "Add your name" (docs/decisions/0054-phone-sign-in-pages.md): an account made by phone sign-in has
 * no name; the profile and the checkout ask for one here, never blocking. A name field with "Save",
 * and "Not now", which closes the prompt until the next sign-in. Both are plain forms posting to the
 * page's own action (app/.server/name-prompt.ts), so they work without JavaScript.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form } from 'react-router'
import { Field, FormAlert, useIsPending, type FormReplyData } from './forms.tsx'
import { Button } from './ui/button.tsx'
import { useSchemaForm } from './use-schema-form.ts'
import { ADD_NAME_INTENT, DISMISS_NAME_INTENT, NameSchema } from '../lib/schemas/phone.ts'

/** The prompt; `action` is the page's own URL, `reply` the action's answer to the name form. */
export function AddNamePrompt({ action, reply }: { action: string; reply: FormReplyData }) {
  const isPending = useIsPending({ formAction: action })
  const [form, fields] = useSchemaForm('add-name', NameSchema, reply?.result)
  return (
    <section
      aria-labelledby="add-name-title"
      data-card="add name"
      className="mb-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-slate-800"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id="add-name-title" className="text-base font-semibold text-slate-900">
          Add your name
        </h2>
        <Form method="post" action={action}>
          <button
            type="submit"
            name="intent"
            value={DISMISS_NAME_INTENT}
            className="min-h-10 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-black/5 hover:underline"
          >
            Not now
          </button>
        </Form>
      </div>
      <p className="mb-3 text-sm text-slate-700">So we know what to call you, and your orders carry it.</p>
      <Form method="post" action={action} {...getFormProps(form)} className="flex flex-wrap items-start gap-3">
        <input type="hidden" name="intent" value={ADD_NAME_INTENT} />
        <Field
          className="min-w-0 flex-1 basis-48"
          labelProps={{ children: 'Name', className: 'sr-only' }}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name', placeholder: 'Enter your name' }}
          errors={fields.name.errors}
        />
        <Button type="submit" size="lg" isPending={isPending}>
          Save
        </Button>
        <div className="basis-full empty:hidden">
          <FormAlert form={form} reply={reply} />
        </div>
      </Form>
    </section>
  )
}
