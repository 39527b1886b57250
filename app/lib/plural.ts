/**
 * Counted nouns in the shop's English copy: "1 result", "2 results", "0 orders". English has two
 * plural categories, "one" and "other" (Unicode CLDR plural rules, as `Intl.PluralRules('en')`
 * reports them), so a count of exactly 1 takes the singular and every other count the plural.
 */

const englishPlural = new Intl.PluralRules('en')

/**
 * `count` followed by the noun in the form the count needs: `countLabel(1, 'result')` is "1 result",
 * `countLabel(3, 'result')` "3 results". `plural` defaults to the singular plus "s"; pass it for
 * other plurals (`countLabel(2, 'category', 'categories')`). `count` is printed as given.
 */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${englishPlural.select(count) === 'one' ? singular : plural}`
}
