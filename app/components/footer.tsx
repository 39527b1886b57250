/**
 * The site footer (docs/product.md, "Footer"): the copyright line for 2024 (docs/product.md,
 * "Constants") and three social links. The original app's links pointed nowhere; they stay
 * `href="#"` until the shop has real profiles.
 */
import { FacebookIcon, InstagramIcon, LinkedInIcon } from './icons.tsx'

const SOCIAL_LINKS = [
  { label: 'Facebook', Icon: FacebookIcon },
  { label: 'Instagram', Icon: InstagramIcon },
  { label: 'LinkedIn', Icon: LinkedInIcon },
] as const

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col items-center gap-2 px-4 py-4 text-sm text-slate-600 md:flex-row md:justify-between">
        <p>© All Rights Reserved 2024.</p>
        <ul className="flex items-center gap-2">
          {SOCIAL_LINKS.map(({ label, Icon }) => (
            <li key={label}>
              <a
                href="#"
                aria-label={label}
                className="grid size-10 place-items-center rounded-full text-slate-700 hover:bg-brand-light hover:text-accent"
              >
                <Icon size={22} />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  )
}
