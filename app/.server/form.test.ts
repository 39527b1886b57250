/**
 * app/.server/form.ts: the body read (as a value and as a thrown response) and the Conform replies
 * of a form the schema refused or the API refused.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { failedFormReply, invalidFormReply, issuesToFieldErrors, readForm, tryReadForm } from './form.ts'

const Schema = z.object({ name: z.string({ error: 'Name is required' }), email: z.string({ error: 'Email is required' }) })
const formOf = (entries: Record<string, string>) => {
  const fd = new FormData()
  for (const [key, value] of Object.entries(entries)) fd.set(key, value)
  return fd
}
const submissionOf = (entries: Record<string, string>) => parseWithZod(formOf(entries), { schema: Schema })
/** The body and status of a `data()` answer. */
const answer = (value: unknown): Record<string, any> => {
  const { data, init } = value as { data: Record<string, any>; init: ResponseInit | null }
  return { ...data, status: init?.status }
}

describe('tryReadForm and readForm', () => {
  const big = () =>
    new Request('http://shop.test/x', {
      method: 'POST',
      headers: { 'Content-Length': String(10 * 1024 * 1024), 'Content-Type': 'multipart/form-data; boundary=x' },
      body: 'x',
    })

  it('answers a failed read as a value, with the page’s own 413 message', async () => {
    expect(await tryReadForm(big(), { tooLargeMessage: 'Too big' })).toEqual({ ok: false, status: 413, message: 'Too big' })
    const json = new Request('http://shop.test/x', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(await tryReadForm(json)).toMatchObject({ ok: false, status: 415 })
  })

  it('throws a failed read as a response with its status (405 names the methods allowed)', async () => {
    await expect(readForm(big())).rejects.toMatchObject({ init: { status: 413 } })
    await expect(readForm(new Request('http://shop.test/x', { method: 'PUT' }))).rejects.toMatchObject({
      init: { status: 405, headers: { Allow: 'GET, HEAD, POST' } },
    })
    const ok = await readForm(new Request('http://shop.test/x', { method: 'POST', body: new URLSearchParams({ name: 'Asha' }) }))
    expect(ok.get('name')).toBe('Asha')
  })
})

describe('invalidFormReply', () => {
  it('answers 400 with the schema’s messages, secret fields emptied, no toast unless asked', () => {
    const reply = answer(invalidFormReply(submissionOf({ email: 'a@example.com', password: 'secret' }), { hideFields: ['password'] }))
    expect(reply.status).toBe(400)
    expect(reply.result.error).toEqual({ name: ['Name is required'] })
    expect(reply.result.initialValue).toEqual({ email: 'a@example.com' })
    expect(reply.toast).toBeNull()
    const withToast = answer(
      invalidFormReply(submissionOf({}), { toast: { type: 'error', message: 'Check the form' }, extra: { intent: 'add' } }),
    )
    expect(withToast).toMatchObject({ intent: 'add', toast: { type: 'error', message: 'Check the form' } })
  })
})

describe('failedFormReply', () => {
  const ok = submissionOf({ name: 'Asha', email: 'a@example.com' })

  it('says a message that names no field above the button and as a toast, with the API status (502 for a fault)', () => {
    const reply = answer(failedFormReply(ok, { status: 500, message: 'Something broke', issues: [] }))
    expect(reply.status).toBe(502)
    expect(reply.result.error['']).toEqual(['Something broke'])
    expect(reply.toast).toEqual({ type: 'error', message: 'Something broke' })
  })

  it('puts the API issues under the form’s fields and does not repeat a message a field says', () => {
    const reply = answer(
      failedFormReply(
        ok,
        {
          status: 400,
          message: 'email: Not allowed here',
          issues: [
            { path: 'email', message: 'Not allowed here' },
            { path: 'other', message: 'x' },
          ],
        },
        { fields: ['name', 'email'] },
      ),
    )
    expect(reply.status).toBe(400)
    expect(reply.result.error.email).toEqual(['Not allowed here'])
    expect(reply.result.error['']).toBeUndefined()
    expect(reply.result.error.other).toBeUndefined()
  })

  it('puts a 409 on its conflict field, keeps a 429 wait and Retry-After, and merges the page’s own field messages', () => {
    const taken = answer(failedFormReply(ok, { status: 409, message: 'Email already in use', issues: [] }, { conflictField: 'email' }))
    expect(taken).toMatchObject({ status: 409, result: { error: { email: ['Email already in use'] } } })
    expect(taken.result.error['']).toBeUndefined()

    const limited = failedFormReply(ok, { status: 429, message: 'Slow down', issues: [], retryAfter: 30 }, { extra: { intent: 'login' } })
    expect(answer(limited)).toMatchObject({ status: 429, intent: 'login', toast: { message: 'Slow down. Please wait 30 seconds.' } })
    expect(new Headers((limited as { init: ResponseInit }).init.headers).get('Retry-After')).toBe('30')

    const merged = answer(
      failedFormReply(ok, { status: 400, message: 'Mismatch' }, { fieldErrors: { email: ['Mismatch'] }, hideFields: ['email'] }),
    )
    expect(merged.result.error).toMatchObject({ email: ['Mismatch'] })
    expect(merged.result.error['']).toBeUndefined()
    expect(merged.result.initialValue.email).toBeUndefined()
  })

  it('issuesToFieldErrors reads the first path segment, each message once', () => {
    expect(
      issuesToFieldErrors(
        [
          { path: 'category.0', message: 'Unknown category' },
          { path: 'name', message: 'Too long' },
          { path: 'name', message: 'Too long' },
          { path: 'other', message: 'x' },
        ],
        ['name', 'image', 'category'],
      ),
    ).toEqual({ category: ['Unknown category'], name: ['Too long'] })
  })
})
