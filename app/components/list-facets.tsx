/**
 * Filters and sort of a product list (search results, category and sub category listings;
 * docs/search.md, "Facets and sorting"): a GET form, so it works without JavaScript and every
 * filtered list is a link that can be shared. Mobile first: the form folds into a "Filter and sort"
 * disclosure (`<details>`, no script needed) above the grid; the chosen filters show as removable
 * chips beside it. Each facet value shows how many products of the list have it. With JavaScript a
 * change submits the form at once; without it the Apply button does.
 */
import { Form, Link, useLocation, useSubmit } from 'react-router'
import {
  filtersKey,
  hasFilters,
  isSorted,
  PRICE_BANDS,
  SORT_LABELS,
  sortChoices,
  withoutFilter,
  withoutFilters,
  type Facets,
  type FacetValue,
  type ListFilters,
} from '../lib/list-filters.ts'

/** Brands shown before "more brands" (the rest stay in the form, folded away). */
const VISIBLE_BRANDS = 8

/**
 * The filter form and chips of one list. `hidden` are extra GET fields to keep (the search's `q`).
 * The orders offered are the list's (`filters.kind`: app/lib/list-filters.ts `sortChoices`).
 */
export function ListFacets({
  filters,
  facets,
  hidden = {},
}: {
  filters: ListFilters
  facets: Facets | undefined
  hidden?: Record<string, string>
}) {
  const location = useLocation()
  const submit = useSubmit()
  const active = filters.brand.length + (filters.price ? 1 : 0) + (filters.discount !== null ? 1 : 0)
  const brands = facets?.brand ?? []
  const labelOf = (sort: ListFilters['sort']) => SORT_LABELS[sort]
  return (
    <div className="mb-3 flex flex-col gap-2">
      <details data-card="filters" className="rounded-xl border border-slate-200 bg-white">
        <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-3 text-sm font-semibold text-slate-800">
          <span>
            Filter and sort
            {active > 0 ? <span className="ml-1 font-normal text-slate-600">({active} chosen)</span> : null}
          </span>
          <span className="text-slate-600">Sort: {labelOf(filters.sort)}</span>
        </summary>
        {/* Keyed by the filters: a chip or Back that changes them must not leave stale boxes ticked. */}
        <Form
          key={filtersKey(filters)}
          method="get"
          action={location.pathname}
          preventScrollReset
          className="grid gap-4 border-t border-slate-200 p-3 sm:grid-cols-2 lg:grid-cols-4"
          onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
        >
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <fieldset>
            <legend className="mb-1 text-sm font-semibold text-slate-800">Sort by</legend>
            {sortChoices(filters.kind).map((sort) => (
              <Choice key={sort} type="radio" name="sort" value={sort} label={labelOf(sort)} checked={filters.sort === sort} />
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-semibold text-slate-800">Brand</legend>
            {brands.length === 0 ? <p className="text-sm text-slate-600">No brands to choose.</p> : null}
            {brands.slice(0, VISIBLE_BRANDS).map((b) => (
              <BrandChoice key={b.value} facet={b} checked={filters.brand.some((x) => x.toLowerCase() === b.value.toLowerCase())} />
            ))}
            {brands.length > VISIBLE_BRANDS ? (
              <details>
                <summary className="min-h-8 cursor-pointer text-sm font-medium text-accent">
                  More brands ({brands.length - VISIBLE_BRANDS})
                </summary>
                {brands.slice(VISIBLE_BRANDS).map((b) => (
                  <BrandChoice key={b.value} facet={b} checked={filters.brand.some((x) => x.toLowerCase() === b.value.toLowerCase())} />
                ))}
              </details>
            ) : null}
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-semibold text-slate-800">Price</legend>
            <Choice type="radio" name="price" value="" label="Any price" checked={filters.price === null} />
            {PRICE_BANDS.map((band) => (
              <Choice
                key={band.id}
                type="radio"
                name="price"
                value={band.id}
                label={band.label}
                count={facets?.price.find((p) => p.value === band.id)?.count}
                checked={filters.price === band.id}
              />
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-semibold text-slate-800">Discount</legend>
            <Choice type="radio" name="discount" value="" label="Any discount" checked={filters.discount === null} />
            {(facets?.discount ?? []).map((d) => (
              <Choice
                key={d.value}
                type="radio"
                name="discount"
                value={d.value}
                label={d.label}
                count={d.count}
                checked={String(filters.discount) === d.value}
              />
            ))}
          </fieldset>
          <div className="flex items-center gap-3 sm:col-span-2 lg:col-span-4">
            <button
              type="submit"
              className="h-10 rounded-lg bg-accent px-4 text-sm font-semibold text-white hover:bg-accent-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            >
              Apply
            </button>
            {active > 0 || isSorted(filters) ? (
              <Link to={`${location.pathname}${withoutFilters(location.search)}`} className="text-sm font-medium text-accent underline">
                Clear all
              </Link>
            ) : null}
          </div>
        </Form>
      </details>
      {hasFilters(filters) ? <ChosenFilters filters={filters} /> : null}
    </div>
  )
}

/** The chosen filters as chips, each a link to the list without it. */
function ChosenFilters({ filters }: { filters: ListFilters }) {
  const { pathname, search } = useLocation()
  const chips = [
    ...filters.brand.map((brand) => ({ key: `brand:${brand}`, label: brand, href: withoutFilter(search, 'brand', brand) })),
    ...(filters.price
      ? [{ key: 'price', label: PRICE_BANDS.find((b) => b.id === filters.price)!.label, href: withoutFilter(search, 'price') }]
      : []),
    ...(filters.discount !== null
      ? [{ key: 'discount', label: `${filters.discount}% off or more`, href: withoutFilter(search, 'discount') }]
      : []),
  ]
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Chosen filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Link
            to={`${pathname}${chip.href}`}
            preventScrollReset
            className="inline-flex min-h-9 items-center gap-1 rounded-full border border-accent bg-white px-3 text-sm font-medium text-accent hover:bg-accent hover:text-white"
          >
            {chip.label}
            <span aria-hidden="true">×</span>
            <span className="sr-only">(remove this filter)</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

function BrandChoice({ facet, checked }: { facet: FacetValue; checked: boolean }) {
  return <Choice type="checkbox" name="brand" value={facet.value} label={facet.label} count={facet.count} checked={checked} />
}

/** One radio button or checkbox with its label and count; tall enough to tap (44 px rows). */
function Choice({
  type,
  name,
  value,
  label,
  count,
  checked,
}: {
  type: 'radio' | 'checkbox'
  name: string
  value: string
  label: string
  count?: number
  checked: boolean
}) {
  return (
    <label className="flex min-h-9 items-center gap-2 text-sm text-slate-700">
      <input type={type} name={name} value={value} defaultChecked={checked} className="h-4 w-4 accent-accent" />
      <span>
        {label}
        {count !== undefined ? <span className="text-slate-600"> ({count})</span> : null}
      </span>
    </label>
  )
}
