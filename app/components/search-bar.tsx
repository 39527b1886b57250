/**
 * The header's search bar (docs/product.md, "Search bar"; docs/product.md, "Constants").
 *
 * - Prompt mode (every path but /search): a link to /search showing an animated typing prompt that
 *   cycles through the eleven suggestions, 50 ms per character, each held 1 s; it pauses while the
 *   bar is hovered or focused and stays still under reduced motion. It is a plain
 *   `<a href="/search">`, so it works without JavaScript (the prompt then stays on "Search milk").
 * - Search mode (/search): a GET form to /search with the text input `q`, focused on arrival, with the
 *   placeholder of docs/product.md, "Search bar". On screens narrower than 768 px a back arrow to /
 *   replaces the search icon. The header leaves it out on /search with a query string
 *   (app/components/header.tsx), where the search page shows its own form.
 */
import { useEffect, useRef, useState } from 'react'
import { Form, Link, useLocation, useSearchParams } from 'react-router'
import { ArrowLeftIcon, SearchIcon } from './icons.tsx'
import { cn } from './ui/cn.ts'

/** The prompt's suggestions, in the original app's order and spelling ("panner" included; docs/product.md, "Search bar"). */
export const SEARCH_SUGGESTIONS = [
  'Search milk',
  'Search bread',
  'Search sugar',
  'Search panner',
  'Search chocolate',
  'Search curd',
  'Search egg',
  'Search chips',
  'Search rice',
  'Search atta',
  'Search dal',
] as const

/** Milliseconds per typed or erased character (docs/product.md, "Constants": typing speed 50). */
export const TYPING_MS_PER_CHAR = 50
/** Milliseconds each whole suggestion stays on screen (docs/product.md, "Search bar" and "Constants"). */
export const TYPING_HOLD_MS = 1000

/** The placeholder of the real search input (docs/product.md, "Search bar"). */
export const SEARCH_PLACEHOLDER = 'Search for atta dal and more'

/** One step of the typing animation: show `text`, then wait `delay` ms. */
export interface TypingFrame {
  text: string
  delay: number
}

/**
 * The frames of the typing prompt, forever: the first suggestion fully typed (what the server
 * renders), held; then for each next suggestion the old text is erased back to the common prefix
 * ("Search ") and the new word typed, a character per `msPerChar`, the whole text held `holdMs`.
 * With `reducedMotion` each suggestion simply replaces the last (no per-character motion).
 */
export function* typingFrames(
  suggestions: readonly string[] = SEARCH_SUGGESTIONS,
  { msPerChar = TYPING_MS_PER_CHAR, holdMs = TYPING_HOLD_MS, reducedMotion = false } = {},
): Generator<TypingFrame, never> {
  if (suggestions.length === 0) throw new RangeError('typingFrames: no suggestions')
  let current = suggestions[0]
  yield { text: current, delay: holdMs }
  for (let i = 1; ; i++) {
    const next = suggestions[i % suggestions.length]
    if (!reducedMotion) {
      let common = 0
      while (common < current.length && common < next.length && current[common] === next[common]) common++
      for (let length = current.length - 1; length >= common; length--) yield { text: current.slice(0, length), delay: msPerChar }
      for (let length = common + 1; length < next.length; length++) yield { text: next.slice(0, length), delay: msPerChar }
    }
    current = next
    yield { text: current, delay: holdMs }
  }
}

/**
 * The animated prompt text; renders the first suggestion on the server and before hydration. It
 * moves only while `paused` is false and never under `prefers-reduced-motion: reduce` (WCAG 2.2.2
 * "Pause, Stop, Hide": hovering or focusing the bar pauses it; the header pauses it then). It is
 * decoration (`aria-hidden`): the link is named by its own text.
 */
function TypingPrompt({ paused }: { paused: boolean }) {
  const [text, setText] = useState<string>(SEARCH_SUGGESTIONS[0])
  const frames = useRef<Generator<TypingFrame, never> | null>(null)
  useEffect(() => {
    if (paused) return
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
    let timer: ReturnType<typeof setTimeout>
    const step = () => {
      const frame = frames.current!.next().value
      setText(frame.text)
      timer = setTimeout(step, frame.delay)
    }
    if (frames.current) {
      // Resuming after a pause: go on from where it stopped.
      timer = setTimeout(step, TYPING_MS_PER_CHAR)
    } else {
      frames.current = typingFrames(SEARCH_SUGGESTIONS)
      // The first frame is what is already shown: wait out its hold, then animate.
      timer = setTimeout(step, frames.current.next().value.delay)
    }
    return () => clearTimeout(timer)
  }, [paused])
  return (
    <span aria-hidden="true" className="truncate">
      {text}
      <span className="typing-caret ml-px inline-block h-4 w-px translate-y-0.5 bg-slate-500" />
    </span>
  )
}

// No minimum width from 768 px: beside the logo, the account menu and a filled cart button it takes
// what is left, so the header never pushes the page wider than a tablet's screen.
const BAR =
  'flex h-11 w-full min-w-0 items-center overflow-hidden rounded-lg border border-slate-300 bg-slate-50 text-slate-500 lg:min-w-[420px]'

/** The search bar: a prompt link outside /search, a real GET form on /search. */
export function SearchBar({ className }: { className?: string }) {
  const { pathname } = useLocation()
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  if (pathname !== '/search') {
    return (
      <Link
        to="/search"
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        className={cn(BAR, 'gap-3 px-3 hover:border-accent focus-visible:outline-2 focus-visible:outline-accent', className)}
      >
        <SearchIcon size={20} className="shrink-0 text-slate-700" />
        {/* The name is this text, not an aria-label: the visible prompt then never contradicts it. */}
        <span className="sr-only">Search products</span>
        <TypingPrompt paused={hovered || focused} />
      </Link>
    )
  }
  return <SearchForm className={className} />
}

function SearchForm({ className }: { className?: string }) {
  const [searchParams] = useSearchParams()
  return (
    <Form method="get" action="/search" role="search" className={cn(BAR, 'bg-white focus-within:border-accent', className)}>
      {/* Below 768 px the back arrow takes the icon's place (docs/product.md, "Search bar"). */}
      <Link to="/" aria-label="Back to home" className="grid size-11 shrink-0 place-items-center text-slate-700 md:hidden">
        <ArrowLeftIcon size={20} />
      </Link>
      <button type="submit" aria-label="Search" className="hidden size-11 shrink-0 place-items-center text-slate-700 md:grid">
        <SearchIcon size={20} />
      </button>
      <input
        type="search"
        name="q"
        defaultValue={searchParams.get('q') ?? ''}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label="Search products"
        autoComplete="off"
        enterKeyHint="search"
        autoFocus
        className="h-full min-w-0 flex-1 bg-transparent pr-3 text-base text-slate-900 outline-none placeholder:text-slate-500"
      />
    </Form>
  )
}
