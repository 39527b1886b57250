/**
 * The seller on the tax invoice and the GST rate table, from the environment (README.md,
 * "Configuration"; docs/commerce-api.md, "Tax invoice"): `SELLER_NAME` (the legal name on every
 * invoice), `SELLER_ADDRESS` and `SELLER_GSTIN` (printed for a store without a GSTIN of its own:
 * docs/decisions/0042-invoice-and-credit-note-numbering.md, "Supplier") and `GST_RATES`.
 */
import { isValidGstin } from '../../../contract/invoice.ts'
import { buildGstRates, parseGstRates, type GstRateTable } from './gst-rates.ts'

/** The invoice's settings: the seller as printed and the rates (api/modules/invoice/gst-rates.ts). */
export interface InvoiceSettings {
  sellerName: string
  /** The registered address, lines separated by `\n` (`SELLER_ADDRESS` writes them with `|` or `\n`). */
  sellerAddress: string
  sellerGstin: string
  gstRates: GstRateTable
}

/** A placeholder seller (a GSTIN of the right shape and check character, Karnataka's state code 29): set the real one in production. */
export const DEFAULT_INVOICE: InvoiceSettings = {
  sellerName: 'Grocery Retail Pvt Ltd',
  sellerAddress: '12, MG Road\nBengaluru, Karnataka 560001',
  sellerGstin: '29AAAAA0000A1ZY',
  gstRates: buildGstRates(),
}

const TEXT_MAX = 200

/**
 * Reads the invoice's settings. Throws at start on a GSTIN that is not 15 characters of the standard
 * pattern with a matching check character, on a name or address over 200 characters, or on a bad
 * `GST_RATES` (api/modules/invoice/gst-rates.ts, `parseGstRates`).
 */
export function parseInvoiceSettings(env: NodeJS.ProcessEnv): InvoiceSettings {
  const text = (name: string, fallback: string) => {
    const value = env[name]?.trim()
    if (!value) return fallback
    if (value.length > TEXT_MAX || /[^\P{Cc}\n]/u.test(value))
      throw new Error(`${name} must be plain text of at most ${TEXT_MAX} characters`)
    return value
  }
  const gstin = (env.SELLER_GSTIN ?? '').trim().toUpperCase() || DEFAULT_INVOICE.sellerGstin
  if (!isValidGstin(gstin))
    throw new Error(
      `SELLER_GSTIN must be a 15-character GSTIN (e.g. 29AAAAA0000A1ZY) with a valid check character, got "${env.SELLER_GSTIN}"`,
    )
  return {
    sellerName: text('SELLER_NAME', DEFAULT_INVOICE.sellerName),
    sellerAddress: text('SELLER_ADDRESS', DEFAULT_INVOICE.sellerAddress)
      .split(/\s*(?:\||\n)\s*/)
      .filter(Boolean)
      .join('\n'),
    sellerGstin: gstin,
    gstRates: parseGstRates(env.GST_RATES),
  }
}
