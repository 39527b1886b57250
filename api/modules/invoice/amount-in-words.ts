/**
 * An amount in words as an Indian tax invoice states it (CGST Rules 2017, rule 46(i): the total value
 * of supply; written in words by custom): "Rupees Two Hundred Fifty-Six Only", "Rupees Ten and
 * Fifty Paise Only", in the Indian numbering system (thousand, lakh = 1,00,000, crore = 1,00,00,000;
 * above 99 crore the crores are counted in the same system: "One Hundred Crore").
 */

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
]
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety']

/** 0..99 in words, tens and ones hyphenated ("Fifty-Six"). */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!
  const ones = n % 10
  return ones === 0 ? TENS[Math.floor(n / 10)]! : `${TENS[Math.floor(n / 10)]}-${ONES[ones]}`
}

/** A whole number ≥ 1 in words, Indian system; 0 is "Zero". */
export function numberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a whole number: ${n}`)
  if (n === 0) return 'Zero'
  const parts: string[] = []
  const crores = Math.floor(n / 10_000_000)
  if (crores > 0) parts.push(`${numberInWords(crores)} Crore`)
  const lakhs = Math.floor((n % 10_000_000) / 100_000)
  if (lakhs > 0) parts.push(`${belowHundred(lakhs)} Lakh`)
  const thousands = Math.floor((n % 100_000) / 1000)
  if (thousands > 0) parts.push(`${belowHundred(thousands)} Thousand`)
  const hundreds = Math.floor((n % 1000) / 100)
  if (hundreds > 0) parts.push(`${ONES[hundreds]} Hundred`)
  const rest = n % 100
  if (rest > 0) parts.push(belowHundred(rest))
  return parts.join(' ')
}

/**
 * `paise` (a whole, non-negative number of paise) in words: "Rupees … Only", with " and … Paise"
 * when there are paise; less than a rupee is "… Paise Only".
 * @throws RangeError for a negative or fractional amount
 */
export function amountInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`Not an amount in paise: ${paise}`)
  const rupees = Math.floor(paise / 100)
  const rest = paise % 100
  if (rupees === 0 && rest > 0) return `${belowHundred(rest)} Paise Only`
  return `Rupees ${numberInWords(rupees)}${rest > 0 ? ` and ${belowHundred(rest)} Paise` : ''} Only`
}
