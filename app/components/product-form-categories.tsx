/**
 * The Category and Sub Category pickers of the product form (app/components/product-form.tsx): chips
 * with JavaScript, multiple selects without (app/components/chips-select.tsx); at least one category
 * (app/lib/schemas/product.ts). With JavaScript the sub category choices narrow to those of the
 * picked categories (plus any already picked), and the category field is checked again as its chips
 * change, since the hidden inputs they post fire no events of their own.
 */
import type { FieldMetadata } from '@conform-to/react'
import { useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ChipsSelect } from './chips-select.tsx'
import { listValue, useRevalidateOnChange } from './use-schema-form.ts'
import { PRODUCT_FIELD_LABELS, type ProductChoice, type SubCategoryChoice } from '../lib/schemas/product.ts'

/** The two pickers; `form.validate` re-checks the category field (see the module comment). */
export function ProductCategories({
  form,
  category,
  subCategory,
  categories,
  subCategories,
}: {
  form: { validate: (options: { name: string }) => void }
  category: FieldMetadata<string[]>
  subCategory: FieldMetadata<string[]>
  categories: ProductChoice[]
  subCategories: SubCategoryChoice[]
}) {
  const isHydrated = useHydrated()
  const [pickedCategories, setPickedCategories] = useState(() => listValue(category.initialValue))
  const [pickedSubCategories, setPickedSubCategories] = useState(() => listValue(subCategory.initialValue))
  useRevalidateOnChange(form, category.name, pickedCategories, Boolean(category.errors?.length) || pickedCategories.length === 0)

  const subCategoryOptions =
    isHydrated && pickedCategories.length > 0
      ? subCategories.filter(
          (option) =>
            option.categoryIds.some((categoryId) => pickedCategories.includes(categoryId)) || pickedSubCategories.includes(option.value),
        )
      : subCategories

  return (
    <>
      <ChipsSelect
        name={category.name}
        label={PRODUCT_FIELD_LABELS.category}
        placeholder="Select Category"
        options={categories}
        defaultValue={listValue(category.initialValue)}
        errors={category.errors}
        onChange={setPickedCategories}
      />
      <ChipsSelect
        name={subCategory.name}
        label={PRODUCT_FIELD_LABELS.subCategory}
        placeholder="Select Sub Category"
        options={subCategoryOptions}
        defaultValue={listValue(subCategory.initialValue)}
        errors={subCategory.errors}
        onChange={setPickedSubCategories}
      />
    </>
  )
}
