/**
 * Keeps the citations in comments and docs honest (static stage of `npm test`).
 *
 * Every rule in this repository names its source, and that source must be something a reader of
 * the repository has: a document in it, a standard (RFC, OWASP, WCAG) or a library's docs. So:
 * - a cited document (`docs/….md`, `README.md`) must exist, and a cited heading, written
 *   `docs/product.md, "Heading"` (or `docs/product.md, "A" and "B"`), must be a heading of that file
 *   (or the bold label of one of its list items), word for word; a citation may wrap over comment
 *   lines;
 * - citations of documents outside the repository are refused: the original spec's sections ("spec
 *   section 5", a bare "section 5" that is not an RFC's), work items ("issue 4 item 8"), the original
 *   upstream contract ("contract, \"Defects\""), DEVELOPERS.md, the "stack notes" and paths outside
 *   the repository.
 * - docs/product.md is cited with the heading that states the rule, never as a whole: it holds every
 *   product rule, so the bare path tells a reader nothing; in code (not in a Markdown document, which
 *   may point to another as a whole) the same holds for every `docs/` document longer than
 *   {@link LONG_DOCUMENT_LINES} lines (decision records excepted: each states one decision);
 * - every decision record `docs/decisions/NNNN-*.md` follows docs/decisions/template.md (title
 *   `# NNNN. Title`, `- Date:`, `- Status:`, sections Context, Decision and Consequences) and is
 *   listed in docs/decisions/README.md.
 *
 * Usage: `npx tsx scripts/check-citations.ts` (exit 1 with one line per problem); `npm test` runs it
 * in its static stage. The pure functions are exported for scripts/check-citations.test.ts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** Folders and files scanned, relative to the repository root. */
export const ROOTS = [
  'app',
  'api',
  'contract',
  'scripts',
  'tests',
  'bench',
  'types',
  'docs',
  'deploy',
  '.ci',
  'server.ts',
  'README.md',
  'Dockerfile',
  'compose.yaml',
  'package.json',
  'eslint.config.js',
  'playwright.config.ts',
  'vite.config.ts',
  'vitest.config.ts',
  'react-router.config.ts',
  'drizzle.config.ts',
]

/** Files that talk about the forbidden forms on purpose. */
const SELF = new Set(['scripts/check-citations.ts', 'scripts/check-citations.test.ts'])
const SKIP_DIRS = new Set(['node_modules', 'build', '.react-router', 'data', 'migrations'])
const TEXT_FILE = /\.(ts|tsx|mjs|cjs|js|css|md|json|ya?ml|sh|sql)$|^(Dockerfile|run)$/

/**
 * Citation forms that point outside the repository, each with the reason shown to the author.
 * Case-insensitive where a capitalised form occurs at the start of a sentence.
 */
export const FORBIDDEN: ReadonlyArray<{ re: RegExp; why: string; unlessBefore?: RegExp }> = [
  {
    re: /(?<![.\w/-])spec(?:'s)?(?![.\w-])/gi,
    why: 'the original spec is not in the repository; cite docs/product.md, "Heading" or say "the original app"',
  },
  {
    re: /\bsections? \d+/gi,
    why: 'a bare section number (of the original spec); cite docs/product.md, "Heading"',
    unlessBefore: /\b(RFC|ISO|ECMA-?)\s?[\d-]+,?\s*$/i,
  },
  { re: /\bissues? \d+/gi, why: 'issue numbers are not documents; cite the docs/ heading or decision record that holds the rule' },
  { re: /\bcontract, "/g, why: 'the original upstream contract; cite docs/api-contract.md, "Heading"' },
  { re: /\(contract:/g, why: 'the original upstream contract; cite docs/api-contract.md, "Heading"' },
  { re: /\bthe contract(?:'s)?\b(?!\/)/gi, why: 'say which: docs/api-contract.md, "Heading" (or the contract/ folder by path)' },
  { re: /\bDEVELOPERS\.md\b/g, why: 'DEVELOPERS.md is not in the repository; cite README.md or docs/decisions/' },
  { re: /\bstack[ -]notes\b/gi, why: "the stack notes are not in the repository; cite docs/decisions/0014-tooling.md or a library's docs" },
  { re: /\.\.\/shared\/|\/work\/shared\b/g, why: 'a path outside the repository' },
  { re: /\bstyle\.md\b/g, why: 'style.md is not in the repository; cite docs/product.md, "Look and feel"' },
]

/** Documents too long to cite as a whole anywhere: a citation must name the heading that states the rule. */
export const HEADING_REQUIRED = new Set(['docs/product.md'])

/** In code, a `docs/` document longer than this (about five screens) is cited with its heading. */
export const LONG_DOCUMENT_LINES = 280

/** True when `doc` (a repository path) with `lines` lines must be cited with a heading from code. */
export function headingRequiredInCode(doc: string, lines: number): boolean {
  return HEADING_REQUIRED.has(doc) || (doc.startsWith('docs/') && !doc.startsWith(`${DECISIONS_DIR}/`) && lines > LONG_DOCUMENT_LINES)
}

/** `docs/x.md, "A"` with optional `, "B"`, ` and "C"` after it; the path alone is group 1. */
const CITATION = /\b((?:docs\/[\w./-]+|README)\.md)(?:, ("[^"\n]+"(?:(?:,| and|, and) "[^"\n]+")*))?/g

/**
 * The text with comment line breaks removed, so a citation wrapped over two comment lines reads as
 * one: a newline plus the next line's indentation and `*` or `//` becomes one space.
 */
export function joinCommentLines(text: string): string {
  return text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/|#(?!#))?[ \t]*/g, ' ')
}

/**
 * The headings of a Markdown document, `#` marks and surrounding spaces removed, and the bold
 * labels that open a list item (`- **Guard first.** …` gives "Guard first"), which decision records
 * use as sub-headings.
 */
export function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>()
  let fenced = false
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (m) headings.add(m[1])
    const label = !fenced && /^\s*(?:[-*]|\d+\.)\s+\*\*(.+?)[.:]?\*\*/.exec(line)
    if (label) headings.add(label[1])
  }
  return headings
}

/**
 * Problems in one file's text.
 * @param text the file's content
 * @param headingsFor the headings of a repository document, or null when no such file exists
 * @param headingRequired whether a document must be cited with a heading (default: HEADING_REQUIRED)
 * @returns one message per problem, `line N: …`
 */
export function findProblems(
  text: string,
  headingsFor: (doc: string) => Set<string> | null,
  headingRequired: (doc: string) => boolean = (doc) => HEADING_REQUIRED.has(doc),
): string[] {
  const problems: string[] = []
  const lineOf = (index: number) => text.slice(0, index).split('\n').length
  for (const { re, why, unlessBefore } of FORBIDDEN) {
    for (const m of text.matchAll(re)) {
      if (unlessBefore && unlessBefore.test(text.slice(Math.max(0, m.index - 24), m.index))) continue
      problems.push(`line ${lineOf(m.index)}: "${m[0]}": ${why}`)
    }
  }
  const joined = joinCommentLines(text)
  for (const m of joined.matchAll(CITATION)) {
    const doc = m[1]
    const headings = headingsFor(doc)
    if (!headings) {
      problems.push(`${doc}: no such file`)
      continue
    }
    if (!m[2] && headingRequired(doc)) problems.push(`${doc} cited as a whole: cite the heading that states the rule, ${doc}, "Heading"`)
    for (const h of m[2]?.matchAll(/"([^"]+)"/g) ?? []) {
      if (!headings.has(h[1])) problems.push(`${doc}, "${h[1]}": no such heading in ${doc}`)
    }
  }
  return problems
}

/** Where decision records live, and the name of a record (not the README or the template). */
export const DECISIONS_DIR = 'docs/decisions'
const RECORD_NAME = /^(\d{4})-[a-z0-9-]+\.md$/

/** The Status values of docs/decisions/template.md; "Superseded by NNNN" must name a record. */
const STATUS = /^- Status: (Proposed|Accepted|Deprecated|Superseded by (\d{4}))\b/m

/**
 * Problems of one decision record against docs/decisions/template.md.
 * @param name the file name, `NNNN-short-name.md`
 * @param text the record's content
 * @param numbers the numbers of every record, for "Superseded by NNNN"
 * @param index the text of docs/decisions/README.md, which must link the record
 * @returns one message per missing or malformed field
 */
export function decisionRecordProblems(name: string, text: string, numbers: ReadonlySet<string>, index: string): string[] {
  const problems: string[] = []
  const number = RECORD_NAME.exec(name)?.[1]
  if (!number) return [`"${name}": a record is named NNNN-short-name.md (lower case, digits and dashes)`]
  const lines = text.split(/\r?\n/)
  if (!new RegExp(`^# ${number}\\. \\S`).test(lines[0] ?? '')) problems.push(`line 1: the title line is "# ${number}. Title"`)
  // The fields sit between the title and the first section.
  const firstSection = lines.findIndex((line) => line.startsWith('## '))
  const header = lines.slice(1, firstSection < 0 ? undefined : firstSection).join('\n')
  if (!/^- Date: \d{4}-\d{2}-\d{2}$/m.test(header)) problems.push('no "- Date: YYYY-MM-DD" line under the title')
  const status = STATUS.exec(header)
  if (!status) problems.push('no "- Status: Proposed|Accepted|Deprecated|Superseded by NNNN" line under the title')
  else if (status[2] && !numbers.has(status[2])) problems.push(`"Superseded by ${status[2]}": no such record`)
  const sections = new Set<string>()
  let fenced = false
  for (const line of lines) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const m = !fenced && /^## (.+?)\s*$/.exec(line)
    if (m) sections.add(m[1])
  }
  for (const section of ['Context', 'Decision', 'Consequences']) if (!sections.has(section)) problems.push(`no "## ${section}" section`)
  if (!index.includes(`(${name})`)) problems.push(`not listed in ${DECISIONS_DIR}/README.md's index`)
  return problems
}

/**
 * Problems of every decision record under `root`, `docs/decisions/NNNN-….md: …`.
 */
export function checkDecisionRecords(root: string): string[] {
  const dir = path.join(root, DECISIONS_DIR)
  if (!fs.existsSync(dir)) return []
  const names = fs
    .readdirSync(dir)
    .filter((n) => /^\d{4}-.*\.md$/.test(n))
    .sort()
  const numbers = new Set(names.map((n) => n.slice(0, 4)))
  const indexFile = path.join(dir, 'README.md')
  const index = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : ''
  return names.flatMap((name) =>
    decisionRecordProblems(name, fs.readFileSync(path.join(dir, name), 'utf8'), numbers, index).map(
      (p) => `${DECISIONS_DIR}/${name}: ${p}`,
    ),
  )
}

/**
 * Every scanned file under `root`, as paths relative to it.
 */
export function scannedFiles(root: string): string[] {
  const out: string[] = []
  const walk = (rel: string): void => {
    const abs = path.join(root, rel)
    if (!fs.existsSync(abs)) return
    const stat = fs.statSync(abs)
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (!SKIP_DIRS.has(name)) walk(path.posix.join(rel, name))
    } else if (TEXT_FILE.test(path.basename(rel)) && !SELF.has(rel)) out.push(rel)
  }
  for (const r of ROOTS) walk(r)
  return out
}

/**
 * Checks the repository at `root`; returns the problems, `file: line N: …`.
 */
export function checkRepository(root: string): string[] {
  const cache = new Map<string, { headings: Set<string>; lines: number } | null>()
  const read = (doc: string) => {
    if (!cache.has(doc)) {
      const abs = path.join(root, doc)
      const text = fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : null
      cache.set(doc, text === null ? null : { headings: headingsOf(text), lines: text.split('\n').length })
    }
    return cache.get(doc) ?? null
  }
  const headingsFor = (doc: string) => read(doc)?.headings ?? null
  const inCode = (doc: string) => headingRequiredInCode(doc, read(doc)?.lines ?? 0)
  const problems: string[] = checkDecisionRecords(root)
  for (const file of scannedFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), 'utf8')
    for (const p of findProblems(text, headingsFor, file.endsWith('.md') ? undefined : inCode)) problems.push(`${file}: ${p}`)
  }
  return problems
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = checkRepository(path.resolve(import.meta.dirname, '..'))
  for (const p of problems) console.error(p)
  if (problems.length > 0) {
    console.error(`${problems.length} citation problem(s): cite a document of this repository with its heading word for word.`)
    process.exit(1)
  }
  console.log('citations: every cited document and heading exists')
}
