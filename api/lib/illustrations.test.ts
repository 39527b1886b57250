/**
 * Drawn product pictures (api/lib/illustrations.ts): the pack form each product gets, the brand's
 * colours, the SVG (escaped, type kept inside the label) and the WebP files in every stored width.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  brandColours,
  escapeXml,
  FONT_FAMILY,
  illustrationName,
  illustrationSvg,
  isIllustrationSubject,
  LABEL_BOX,
  labelLines,
  PACK_FORMS,
  packFormFor,
  renderIllustration,
  type IllustrationSubject,
} from './illustrations.ts'
import { IMAGE_VARIANT_WIDTHS, imageKindOf, isStoredImageUrl, variantUrl, withoutIllustrationsBesidePhotos } from '../../contract/images.ts'

const subject = (over: Partial<IllustrationSubject> = {}): IllustrationSubject => ({
  brand: 'Amul',
  name: 'Taaza Toned Fresh Milk',
  unit: '500 ml',
  form: 'bottle',
  seed: 'BB-1',
  ...over,
})

describe('packFormFor', () => {
  // Real rows of the catalogue (name, sub category, category, unit) and the pack they come in.
  const cases: [string, string, string, string, (typeof PACK_FORMS)[number]][] = [
    ['Onion (Loose)', 'Potato, Onion & Tomato', 'Fruits & Vegetables', '1 kg', 'produce'],
    ['Banana - Robusta', 'Seasonal Fruits', 'Fruits & Vegetables', '1 kg', 'produce'],
    ['Chicken - Curry Cut, Skinless', 'Fresh Chicken', 'Eggs, Meat & Fish', '500 g', 'produce'],
    ['Chicken Seekh Kebab - Marinated', 'Marinated Meat', 'Eggs, Meat & Fish', '250 g', 'pouch'],
    ['Farm Eggs - Regular', 'Farm Eggs', 'Eggs, Meat & Fish', '6 pcs', 'produce'],
    ['Tomato Ketchup', 'Tomato Ketchup & Sauces', 'Snacks & Branded Foods', '1 kg', 'bottle'],
    ['Refined Sunflower Oil', 'Sunflower, Rice Bran Oil', 'Foodgrains, Oil & Masala', '1 L', 'bottle'],
    ['Anti-Hairfall Shampoo', 'Shampoo & Conditioner', 'Beauty & Hygiene', '340 ml', 'bottle'],
    ['Baby Powder', 'Baby Powder', 'Baby Care', '400 g', 'bottle'],
    ['Chakki Fresh Atta', 'Atta Whole Wheat', 'Foodgrains, Oil & Masala', '5 kg', 'pouch'],
    ['Green Moong - Whole', 'Toor, Channa & Moong Dal', 'Foodgrains, Oil & Masala', '500 g', 'pouch'],
    ['Mixed Fruit Jam', 'Jams, Marmalade, Spreads', 'Gourmet & World Food', '500 g', 'jar'],
    ['Pure Honey', 'Honey', 'Snacks & Branded Foods', '250 g', 'jar'],
    ['MaxFresh Toothpaste - Peppermint Ice', 'Toothpaste', 'Beauty & Hygiene', '150 g', 'tube'],
    ['Neem Face Wash', 'Face Care', 'Beauty & Hygiene', '100 ml', 'tube'],
    ['Potato Chips - Magic Masala', 'Chips & Corn Snacks', 'Snacks & Branded Foods', '52 g', 'packet'],
    ['Hakka Noodles - Veg', 'Hakka Noodles', 'Snacks & Branded Foods', '150 g', 'packet'],
    ['Green Tea Bags - Lemon', 'Tea Bags', 'Beverages', '25 pcs', 'box'],
    ['Total Care Baby Diaper Pants - Small', 'Diapers', 'Baby Care', '28 pcs', 'box'],
    // The pack named in the name wins over what the product is.
    ['Tomato Ketchup Pouch', 'Tomato Ketchup & Sauces', 'Snacks & Branded Foods', '950 g', 'pouch'],
    ['Pure Ghee Jar', 'Ghee & Vanaspati', 'Foodgrains, Oil & Masala', '1 L', 'jar'],
    // Cut or packed produce is not loose.
    ['Cut Vegetables - Sambar Mix', 'Cut & Peeled Veggies', 'Fruits & Vegetables', '200 g', 'pouch'],
  ]
  it.each(cases)('%s (%s) is a %s… %s', (name, subCategory, category, unit, form) => {
    expect(packFormFor({ name, subCategory, category, unit })).toBe(form)
  })

  it('falls back on the unit: a volume is a bottle, a weight a pouch, anything else a box', () => {
    expect(packFormFor({ name: 'Zyxw', unit: '250 ml' })).toBe('bottle')
    expect(packFormFor({ name: 'Zyxw', unit: '2 Ltr' })).toBe('bottle')
    expect(packFormFor({ name: 'Zyxw', unit: '2x200 g' })).toBe('pouch')
    expect(packFormFor({ name: 'Zyxw', unit: '1 kg' })).toBe('pouch')
    expect(packFormFor({ name: 'Zyxw', unit: '12 pcs' })).toBe('box')
    expect(packFormFor({ name: 'Zyxw', unit: 'Combo' })).toBe('box')
  })

  it('never draws loose produce from a word of the name alone', () => {
    expect(packFormFor({ name: 'Tomato Soup', subCategory: 'Soups', category: 'Snacks & Branded Foods', unit: '50 g' })).not.toBe('produce')
  })
})

describe('brandColours', () => {
  it('is fixed by the brand name, ignoring case and outer spaces', () => {
    expect(brandColours('Amul')).toEqual(brandColours(' amul '))
    expect(brandColours('Amul')).toEqual(brandColours('AMUL'))
  })

  it('gives different brands different colours', () => {
    const brands = ['Amul', 'Fortune', 'Kissan', 'Colgate', "Lay's", 'Fresho', 'Tata Sampann', 'Dabur', 'Nivea', 'Maggi']
    const fills = new Set(brands.map((b) => brandColours(b).fill))
    expect(fills.size).toBe(brands.length)
  })

  it('is CSS hex colours, and the pack is dark enough for white type', () => {
    for (const brand of ['Amul', 'Fortune', 'Kissan', 'Colgate', 'Fresho', '']) {
      const c = brandColours(brand)
      for (const v of Object.values(c)) expect(v).toMatch(/^#[0-9a-f]{6}$/)
      // Relative luminance (WCAG 2.1) of the fill below 0.3.
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(c.fill.slice(i, i + 2), 16) / 255)
      const lin = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      expect(0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!)).toBeLessThan(0.3)
    }
  })
})

describe('illustrationSvg', () => {
  it('escapes the text, so a name with markup stays text', async () => {
    const svg = illustrationSvg(
      subject({ brand: 'Johnson & Johnson', name: 'Baby <b>Oil</b> "Gentle"', unit: "2x200 ml's", form: 'packet' }),
    )
    expect(svg).toContain('>JOHNSON &amp; JOHNSON<')
    expect(svg).toContain('&lt;b&gt;Oil&lt;/b&gt;')
    expect(svg).toContain('&quot;Gentle&quot;')
    expect(svg).toContain('2x200 ml&apos;s')
    expect(svg).not.toContain('<b>')
    // librsvg reads it: a broken escape would throw here.
    const meta = await sharp(Buffer.from(svg)).metadata()
    expect(meta).toMatchObject({ format: 'svg', width: 512, height: 512 })
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;')
  })

  it('prints the brand, the name and the pack size', () => {
    const svg = illustrationSvg(subject({ name: 'Taaza Milk', form: 'pouch' }))
    expect(svg).toContain('>AMUL<')
    expect(svg).toContain('>Taaza Milk<')
    expect(svg).toContain('>500 ml<')
  })

  // The real font renders each line alone; its ink must be narrower than the label, at any length.
  const inkWidth = async (line: { text: string; size: number; bold: boolean }) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="80"><rect width="1400" height="80" fill="#fff"/>
<text x="700" y="50" font-family="${FONT_FAMILY}" text-anchor="middle" font-size="${line.size}"${line.bold ? ' font-weight="bold"' : ''}>${escapeXml(line.text)}</text></svg>`
    const { info } = await sharp(Buffer.from(svg)).trim({ threshold: 10 }).toBuffer({ resolveWithObject: true })
    return info.width
  }
  const long = {
    brand: 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW Mega Brand International',
    name: 'Anti-Hairfall Shampoo - Aloe & 21 Ayurvedic Herbs, Silky, Shiny, Smooth Hair, Extra Long Name That Goes On MMMMMMMMMMMMMMMMMMMMMMMM',
    unit: '2x200 g + 1x100 g + 3x50 g Combo Pack WWWWWW',
  }
  it.each(PACK_FORMS)('keeps every line of type inside the %s label, however long the text', async (form) => {
    const box = LABEL_BOX[form]
    for (const text of [long, { brand: 'A', name: 'B', unit: '1 g' }, { brand: '', name: 'Tomato', unit: '' }]) {
      const lines = labelLines(text, box)
      for (const line of lines) {
        expect(await inkWidth(line), `${form}: ${line.text}`).toBeLessThanOrEqual(box.width - 8)
        expect(line.y).toBeGreaterThan(box.y)
        expect(line.y).toBeLessThanOrEqual(box.y + box.height)
      }
      // Lines never overlap: each baseline is at least a font size below the one before.
      for (let i = 1; i < lines.length; i++) expect(lines[i]!.y - lines[i - 1]!.y).toBeGreaterThanOrEqual(lines[i]!.size)
    }
  })

  it('shortens a long name with an ellipsis rather than dropping it', () => {
    const lines = labelLines(long, LABEL_BOX.bottle)
    expect(lines.some((l) => l.text.endsWith('…'))).toBe(true)
    expect(lines[0]!.bold).toBe(true)
    expect(lines[lines.length - 1]!.text.startsWith('2x200 g')).toBe(true)
  })
})

describe('renderIllustration', () => {
  it('writes the main file and every variant width as WebP, named like any stored image', async () => {
    const files = await renderIllustration(subject())
    const name = illustrationName(subject())
    expect(name).toMatch(/^[0-9a-f]{24}-il$/)
    expect([...files.keys()]).toEqual([`${name}.webp`, ...IMAGE_VARIANT_WIDTHS.map((w) => `${name}-w${w}.webp`)])
    const widths: Record<string, number> = {
      [`${name}.webp`]: 512,
      [`${name}-w128.webp`]: 128,
      [`${name}-w256.webp`]: 256,
      [`${name}-w512.webp`]: 512,
    }
    for (const [key, bytes] of files) {
      expect(bytes.toString('latin1', 0, 4)).toBe('RIFF')
      expect(bytes.toString('latin1', 8, 12)).toBe('WEBP')
      const meta = await sharp(bytes).metadata()
      expect(meta, key).toMatchObject({ format: 'webp', width: widths[key], height: widths[key] })
    }
    // The url helpers of contract/images.ts treat it as a stored image with variants.
    const url = `/uploads/${name}.webp`
    expect(isStoredImageUrl(url)).toBe(true)
    expect(variantUrl(url, 256)).toBe(`/uploads/${name}-w256.webp`)
    expect(imageKindOf([url])).toBe('illustration')
  })

  it('is deterministic: the same product gives the same name and the same bytes', async () => {
    const [a, b] = await Promise.all([renderIllustration(subject()), renderIllustration(subject())])
    expect([...a.keys()]).toEqual([...b.keys()])
    for (const [key, bytes] of a) expect(bytes.equals(b.get(key)!), key).toBe(true)
  })

  it('gives two products two pictures, even with the same text', async () => {
    const other = subject({ name: 'Gold Full Cream Milk' })
    expect(illustrationName(other)).not.toBe(illustrationName(subject()))
    expect(illustrationName(subject({ seed: 'BB-2' }))).not.toBe(illustrationName(subject()))
    const [a, b] = await Promise.all([renderIllustration(subject()), renderIllustration(other)])
    expect([...a.values()][0]!.equals([...b.values()][0]!)).toBe(false)
  })

  it('draws every form', async () => {
    for (const form of PACK_FORMS) {
      const files = await renderIllustration(subject({ form }))
      expect((await sharp([...files.values()][1]!).metadata()).width).toBe(128)
    }
  })

  it('accepts only a complete subject read back from the database', () => {
    expect(isIllustrationSubject(subject())).toBe(true)
    expect(isIllustrationSubject({ ...subject(), form: 'crate' })).toBe(false)
    expect(isIllustrationSubject({ brand: 'A' })).toBe(false)
    expect(isIllustrationSubject(null)).toBe(false)
  })
})

describe('withoutIllustrationsBesidePhotos', () => {
  const drawn = '/uploads/0123456789abcdef01234567-il.webp'
  const photo = '/uploads/89abcdef0123456789abcdef.webp'
  it('drops drawn pictures when an uploaded image is given, and keeps a list of drawn ones', () => {
    expect(withoutIllustrationsBesidePhotos([drawn, photo])).toEqual([photo])
    expect(withoutIllustrationsBesidePhotos([drawn])).toEqual([drawn])
    expect(withoutIllustrationsBesidePhotos([photo])).toEqual([photo])
    expect(imageKindOf([photo])).toBe('photo')
    expect(imageKindOf([])).toBe('photo')
  })
})
