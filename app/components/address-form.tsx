/**
 * The delivery-address form (docs/commerce-api.md, "Addresses"): its label (Home, Work or Other, as
 * radio buttons), address line, floor and landmark (optional), city, state (a select
 * of India's 28 states and 8 union territories), pincode, country (India, fixed) and mobile, checked
 * as you type by `AddressSchema` (app/lib/schemas/address.ts), the same rules the BFF action and the
 * API apply. Used by /dashboard/address (add, edit) and /checkout (add inline). Works without
 * JavaScript: a plain POST form whose action answers Conform's reply with the messages.
 */
import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ADDRESS_COUNTRY, ADDRESS_LABELS, AddressSchema, INDIAN_STATES } from '../lib/schemas/address.ts'
import { ErrorList, Field, FormAlert, SubmitButton, type FormReplyData } from './forms.tsx'
import { useSchemaForm } from './use-schema-form.ts'

/** An address's form values (all text); a new address's may be partly filled (the checkout's location). */
export interface AddressValues {
  _id?: string
  label?: string
  floor?: string
  landmark?: string
  address_line: string
  city: string
  state: string
  pincode: string
  mobile: string
}

const selectClass =
  'block h-12 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-500'

/**
 * The form. `intent` is posted as the `intent` field (the page's action tells add, edit and place
 * apart); `action` is the page it posts to; `reply` the action's answer to its last submission (its
 * messages and toast); `submitLabel` the button's text.
 */
export function AddressForm({
  id,
  action,
  intent,
  defaultValue,
  reply,
  submitLabel,
  isPending,
}: {
  id: string
  action: string
  intent: string
  defaultValue?: AddressValues
  reply: FormReplyData
  submitLabel: string
  isPending: boolean
}) {
  const [form, fields] = useSchemaForm(id, AddressSchema, reply?.result, defaultValue)
  const stateErrorId = fields.state.errors?.length ? `${fields.state.id}-error` : undefined
  const labelErrorId = fields.label.errors?.length ? `${fields.label.id}-error` : undefined
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      {defaultValue?._id ? <input type="hidden" name="_id" value={defaultValue._id} /> : null}
      <fieldset aria-describedby={labelErrorId}>
        <legend className="mb-1 block text-sm font-medium text-slate-700">Save as</legend>
        <div className="flex flex-wrap gap-2">
          {ADDRESS_LABELS.map((label) => (
            <label
              key={label}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-700 has-[:checked]:border-accent has-[:checked]:bg-emerald-50 has-[:checked]:text-accent"
            >
              <input
                type="radio"
                name={fields.label.name}
                value={label}
                defaultChecked={(fields.label.initialValue ?? 'Home') === label}
                className="size-4 accent-[var(--color-accent)]"
              />
              {label}
            </label>
          ))}
        </div>
        <ErrorList id={labelErrorId} errors={fields.label.errors} />
      </fieldset>
      <Field
        labelProps={{ children: 'Address (house, street, area)' }}
        inputProps={{ ...getInputProps(fields.address_line, { type: 'text' }), autoComplete: 'street-address' }}
        errors={fields.address_line.errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: 'Floor (optional)' }}
          inputProps={{
            ...getInputProps(fields.floor, { type: 'text' }),
            autoComplete: 'address-line2',
            placeholder: 'e.g. 3rd floor, flat 302',
          }}
          errors={fields.floor.errors}
        />
        <Field
          labelProps={{ children: 'Landmark (optional)' }}
          inputProps={{
            ...getInputProps(fields.landmark, { type: 'text' }),
            autoComplete: 'off',
            placeholder: 'e.g. Opposite the metro station',
          }}
          errors={fields.landmark.errors}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: 'City' }}
          inputProps={{ ...getInputProps(fields.city, { type: 'text' }), autoComplete: 'address-level2' }}
          errors={fields.city.errors}
        />
        <div>
          <label htmlFor={fields.state.id} className="mb-1 block text-sm font-medium text-slate-700">
            State
          </label>
          <select
            {...getSelectProps(fields.state)}
            key={fields.state.key}
            autoComplete="address-level1"
            aria-describedby={stateErrorId}
            className={selectClass}
          >
            <option value="">Choose a state</option>
            {INDIAN_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
          <ErrorList id={stateErrorId} errors={fields.state.errors} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: 'Pincode' }}
          inputProps={{
            ...getInputProps(fields.pincode, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'postal-code',
            maxLength: 6,
          }}
          errors={fields.pincode.errors}
        />
        <Field
          labelProps={{ children: 'Mobile' }}
          inputProps={{
            ...getInputProps(fields.mobile, { type: 'tel' }),
            autoComplete: 'tel-national',
            placeholder: '10-digit mobile number',
          }}
          errors={fields.mobile.errors}
        />
      </div>
      <div>
        <label htmlFor={`${id}-country`} className="mb-1 block text-sm font-medium text-slate-700">
          Country
        </label>
        <input id={`${id}-country`} name="country" value={ADDRESS_COUNTRY} readOnly className={selectClass + ' bg-slate-50'} />
      </div>
      <FormAlert form={form} reply={reply} />
      <SubmitButton isPending={isPending} className="sm:w-auto sm:min-w-40">
        {submitLabel}
      </SubmitButton>
    </Form>
  )
}
