/**
 * The answer parts of contract/search.ts as zod schemas, for the API's document and the BFF's
 * parsing (docs/search.md, "Answer"). Annotated with the interfaces of contract/search.ts, so the
 * compiler keeps each pair one rule. Kept apart so that browser code reading the list options does
 * not bundle zod.
 */
import { z } from 'zod'
import type { FacetValue, Facets, Understood } from './search.ts'

const FacetValueSchema: z.ZodType<FacetValue> = z.object({ value: z.string(), label: z.string(), count: z.number() })

/** `facets` beside a list's `data` (docs/search.md, "Facets and sorting"). */
export const FacetsSchema: z.ZodType<Facets> = z
  .object({ brand: z.array(FacetValueSchema), price: z.array(FacetValueSchema), discount: z.array(FacetValueSchema) })
  .meta({ id: 'Facets' })

/** `understood` beside a search's `data` (docs/search.md, "Answer"). */
export const UnderstoodSchema: z.ZodType<Understood> = z
  .object({
    query: z.string(),
    synonyms: z.array(z.object({ word: z.string(), means: z.array(z.string()) })),
    corrections: z.array(z.object({ word: z.string(), to: z.string() })),
    ignored: z.array(z.string()),
    relaxed: z.array(z.string()),
    notStocked: z.array(z.object({ word: z.string(), showing: z.array(z.string()) })).optional(),
    shelf: z
      .object({ category: z.object({ _id: z.string(), name: z.string() }), subCategory: z.object({ _id: z.string(), name: z.string() }) })
      .optional(),
  })
  .meta({ id: 'Understood' })
