/**
 * The page's JavaScript fetched after its first paint (docs/decisions/0077-scripts-after-first-paint.md).
 *
 * React Router's `<Scripts />` writes one `<link rel="modulepreload">` per module the page hydrates
 * with (React DOM hoists them into the head, ahead of the stylesheet) and one inline module script
 * that statically imports the route modules, then `import()`s the client entry, which hydrates. On a
 * slow link the browser fetches those modules (about 140 kB compressed on home) at high priority
 * beside the render-blocking stylesheet and the LCP image, so the first paint waits for bandwidth
 * the page does not need to paint: the document already holds every word and image of the page, and
 * every form works without JavaScript.
 *
 * This rewrites the document as it leaves the server, streamed or whole:
 * - each `<link rel="modulepreload">` before the route modules' script is dropped, and its `href`
 *   (with the link's nonce, when it had one) kept;
 * - that script (the inline module naming `window.__reactRouterRouteModules`) waits for the first
 *   contentful paint (`AFTER_FIRST_PAINT`), then adds the kept modulepreload links, so every module
 *   is still fetched in parallel, and awaits an `import()` of each module it imported statically, in
 *   the same order. The rest of the script (manifest, route module map, the entry's `import()`) runs
 *   as before, inside an async function (no top-level `await`: older module browsers lack it).
 *
 * A script in a shape this does not know (a static import other than `import * as x from "…"` or
 * `import "…"`) is left as it is, with the links it kept written back just before it: the page then
 * loads as before. Links after that script, and everything else, pass through unchanged. Inline
 * script text is never changed in any other script, so the CSP hashes of a cached page
 * (app/.server/csp.ts) are computed on the rewritten document by the caller.
 */
import { StringDecoder } from 'node:string_decoder'
import { Transform, type TransformCallback } from 'node:stream'

/** What marks React Router's route-modules script (its text assigns this global). */
const ROUTE_MODULES_MARK = '__reactRouterRouteModules'

const MODULEPRELOAD_LINK = /^<link\b[^>]*\brel="modulepreload"[^>]*>$/
const MODULE_SCRIPT_TAG = /^<script\b[^>]*\btype="module"[^>]*>$/
const HREF = /\bhref="([^"]*)"/
const NONCE = /\bnonce="([^"]*)"/
/**
 * A static import of one of the two shapes React Router writes: `import * as route0 from "…";` (the
 * route modules) or `import "…";` (the dev server's HMR runtime; the manifest module when lazy route
 * discovery is off). Group 1: what precedes it on its line; 2: the namespace's name, if any; 3: the
 * specifier, a JSON string.
 */
const KNOWN_IMPORT = /(^|[;\n])[ \t]*import\s*(?:\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*)?("(?:[^"\\\n]|\\.)*")[ \t]*;?/g
/** Any static import left after the known ones are taken out (`import(` is the dynamic one). */
const OTHER_STATIC_IMPORT = /(^|[;\n])\s*import\s*[^(\s]/

/** The longest the modules wait for the first paint, ms (a stylesheet that never arrives, a page with nothing to paint). */
export const PAINT_WAIT_MAX_MS = 3_000

/**
 * The executor of a promise that settles once the page has painted: when the browser reports its
 * first contentful paint (Paint Timing, the `paint` entry "first-contentful-paint", reported after
 * the frame is presented), or at once for a hidden document (no frame is painted until it is shown).
 * A browser without Paint Timing waits for the second frame's callbacks (the first frame's run
 * before it is painted); and after `PAINT_WAIT_MAX_MS` the modules are fetched anyway, so a page is
 * never left unhydrated.
 */
const AFTER_FIRST_PAINT = `(go)=>{
if(document.visibilityState==="hidden")return go();
setTimeout(go,${PAINT_WAIT_MAX_MS});
if(!(self.PerformanceObserver&&PerformanceObserver.supportedEntryTypes&&PerformanceObserver.supportedEntryTypes.includes("paint")))return requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(go)));
new PerformanceObserver((list,observer)=>{if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(go)}}).observe({type:"paint",buffered:true})}`.replace(
  /\n/g,
  '',
)

/** A modulepreload link kept back: its URL and nonce as the document wrote them (HTML-escaped). */
interface KeptLink {
  href: string
  nonce: string | null
}

/** HTML attribute text to JavaScript string literal: React escapes `&`, `<`, `>`, `"` and `'` in attributes. */
function attributeValue(raw: string): string {
  return raw
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** A JavaScript string literal safe inside an inline `<script>` (no `</script` or `<!--` can appear). */
function scriptString(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

/**
 * The route-modules script's text rewritten to start after the first paint, or null when it holds a
 * static import of a shape not known here. `links` are the modulepreload links taken out of the head.
 */
export function deferRouteModulesScript(code: string, links: KeptLink[]): string | null {
  // Each import becomes an awaited `import()` in the same order, so the modules are evaluated in the
  // order the static imports would have evaluated them; the preloads added first fetch them all at once.
  const imports: string[] = []
  const rest = code.replace(KNOWN_IMPORT, (_all, before: string, name: string | undefined, specifier: string) => {
    imports.push(name ? `const ${name}=await import(${specifier});` : `await import(${specifier});`)
    return before
  })
  if (OTHER_STATIC_IMPORT.test(rest)) return null
  const preload = links
    .map(({ href, nonce }) => `[${scriptString(attributeValue(href))},${nonce === null ? 'null' : scriptString(attributeValue(nonce))}]`)
    .join(',')
  return [
    '(async()=>{',
    `await new Promise(${AFTER_FIRST_PAINT});`,
    `for(const[href,nonce]of[${preload}]){const link=document.createElement("link");link.rel="modulepreload";link.href=href;if(nonce)link.nonce=nonce;document.head.appendChild(link)}`,
    ...imports,
    rest,
    '\n})()',
  ].join('')
}

/**
 * The rewriting as a state machine over text that arrives in pieces: `push` takes the next piece and
 * answers the text that may be sent now; `end` answers the rest. Text that might be the start of a
 * tag this looks at (`<link`, `<script`) is held until the tag, or the script, is whole.
 */
export class ScriptsAfterPaint {
  private pending = ''
  private links: KeptLink[] = []
  /** After the route-modules script, everything passes through. */
  private done = false

  /** The text that can be sent after `piece` arrived. */
  push(piece: string): string {
    if (this.done) return piece
    this.pending += piece
    return this.drain(false)
  }

  /** The rest of the text at the end of the document. */
  end(): string {
    if (this.done) return ''
    return this.drain(true)
  }

  private drain(atEnd: boolean): string {
    const text = this.pending
    let sent = 0
    let out = ''
    for (;;) {
      const at = this.done ? -1 : text.indexOf('<', sent)
      if (at === -1) {
        this.pending = ''
        return out + text.slice(sent)
      }
      const step = this.step(text, at, atEnd)
      if (step === null) {
        // Not enough text yet to decide: hold it for the next piece (at the end, send it as it is).
        this.pending = atEnd ? '' : text.slice(at)
        return out + text.slice(sent, atEnd ? text.length : at)
      }
      out += text.slice(sent, at) + step.send
      sent = step.next
    }
  }

  /**
   * Reads the tag at `text[at]` (a `<`): the text to send for `text.slice(at, next)`, or null when
   * more text is needed to know.
   */
  private step(text: string, at: number, atEnd: boolean): { send: string; next: number } | null {
    const isLink = text.startsWith('<link', at)
    const isScript = text.startsWith('<script', at)
    if (!isLink && !isScript) {
      // A possible start of `<link`/`<script` cut by the end of the piece: wait; anything else passes.
      const tail = text.slice(at, at + 7)
      if (!atEnd && tail.length < 7 && ('<link'.startsWith(tail) || '<script'.startsWith(tail))) return null
      return { send: '<', next: at + 1 }
    }
    const close = text.indexOf('>', at)
    if (close === -1) return null
    const tag = text.slice(at, close + 1)
    if (isLink) {
      const href = MODULEPRELOAD_LINK.test(tag) ? HREF.exec(tag)?.[1] : undefined
      if (href === undefined) return { send: tag, next: close + 1 }
      this.links.push({ href, nonce: NONCE.exec(tag)?.[1] ?? null })
      return { send: '', next: close + 1 }
    }
    // A script: its text is never scanned for tags; a module script's is rewritten when it is the route modules'.
    const end = text.indexOf('</script>', close + 1)
    if (end === -1) return null
    const next = end + '</script>'.length
    const code = text.slice(close + 1, end)
    if (!MODULE_SCRIPT_TAG.test(tag) || !code.includes(ROUTE_MODULES_MARK)) return { send: text.slice(at, next), next }
    this.done = true
    const deferred = deferRouteModulesScript(code, this.links)
    if (deferred === null) return { send: this.linksAsWritten() + text.slice(at, next), next }
    return { send: `${tag}${deferred}</script>`, next }
  }

  /** The kept links as they were written (for a script this cannot rewrite). */
  private linksAsWritten(): string {
    return this.links
      .map(({ href, nonce }) => `<link rel="modulepreload" href="${href}"${nonce === null ? '' : ` nonce="${nonce}"`}/>`)
      .join('')
  }
}

/** The whole document `html` with its scripts fetched after the first paint (see the module's comment). */
export function scriptsAfterPaint(html: string): string {
  const rewriter = new ScriptsAfterPaint()
  return rewriter.push(html) + rewriter.end()
}

/** The same as a Node stream of UTF-8 bytes, for documents React streams (`renderToPipeableStream`). */
export function scriptsAfterPaintStream(): Transform {
  const decoder = new StringDecoder('utf8')
  const rewriter = new ScriptsAfterPaint()
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const text = rewriter.push(decoder.write(chunk))
      callback(null, text.length > 0 ? Buffer.from(text, 'utf8') : undefined)
    },
    flush(callback: TransformCallback) {
      const text = rewriter.push(decoder.end()) + rewriter.end()
      callback(null, text.length > 0 ? Buffer.from(text, 'utf8') : undefined)
    },
  })
}
