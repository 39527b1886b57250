import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import {
  CATEGORY_REQUIRED_MESSAGE,
  CategoryFormSchema,
  IMAGE_REQUIRED_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  SubCategoryFormSchema,
} from './catalog.ts'

const form = (entries: Array<[string, string]>) => {
  const fd = new FormData()
  for (const [key, value] of entries) fd.append(key, value)
  return fd
}

describe('CategoryFormSchema (name 1..80 characters, image required)', () => {
  it('trims and accepts a name and an image url', () => {
    const submission = parseWithZod(
      form([
        ['name', '  Dairy  '],
        ['image', '/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.webp'],
      ]),
      { schema: CategoryFormSchema },
    )
    expect(submission.status === 'success' && submission.value).toEqual({ name: 'Dairy', image: '/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.webp' })
  })
  it('reports a blank name and a missing image on their fields with the exact messages', () => {
    const submission = parseWithZod(form([['name', '   ']]), { schema: CategoryFormSchema })
    expect(submission.status !== 'success' && submission.error).toEqual({ name: [NAME_REQUIRED_MESSAGE], image: [IMAGE_REQUIRED_MESSAGE] })
    expect(NAME_REQUIRED_MESSAGE).toBe('Name is required')
    expect(IMAGE_REQUIRED_MESSAGE).toBe('Image is required')
  })
  it('accepts 80 characters and refuses 81', () => {
    const parse = (name: string) =>
      parseWithZod(
        form([
          ['name', name],
          ['image', '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'],
        ]),
        { schema: CategoryFormSchema },
      )
    expect(parse('a'.repeat(80)).status).toBe('success')
    const long = parse('a'.repeat(81))
    expect(long.status !== 'success' && long.error).toEqual({ name: ['Name must be at most 80 characters'] })
  })
  it('refuses an image address that is not an uploaded image', () => {
    const submission = parseWithZod(
      form([
        ['name', 'Dairy'],
        ['image', 'javascript:alert(1)'],
      ]),
      { schema: CategoryFormSchema },
    )
    expect(submission.status !== 'success' && submission.error).toEqual({ image: ['Not an uploaded image'] })
  })
})

describe('SubCategoryFormSchema', () => {
  it('collects the repeated category field (chips) and the multiple select alike, once each', () => {
    const submission = parseWithZod(
      form([
        ['name', 'Milk'],
        ['image', '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'],
        ['category', 'c1'],
        ['category', ''],
        ['category', 'c2'],
        ['category', 'c1'],
      ]),
      { schema: SubCategoryFormSchema },
    )
    expect(submission.status === 'success' && submission.value).toEqual({
      name: 'Milk',
      image: '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp',
      category: ['c1', 'c2'],
    })
  })
  it('reads a single category as a list', () => {
    const submission = parseWithZod(
      form([
        ['name', 'Milk'],
        ['image', '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'],
        ['category', ' c3 '],
      ]),
      { schema: SubCategoryFormSchema },
    )
    expect(submission.status === 'success' && submission.value.category).toEqual(['c3'])
  })
  it('needs at least one category', () => {
    const submission = parseWithZod(
      form([
        ['name', 'Milk'],
        ['image', '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'],
      ]),
      { schema: SubCategoryFormSchema },
    )
    expect(submission.status !== 'success' && submission.error).toEqual({ category: [CATEGORY_REQUIRED_MESSAGE] })
    expect(CATEGORY_REQUIRED_MESSAGE).toBe('Select at least one category')
  })
})
