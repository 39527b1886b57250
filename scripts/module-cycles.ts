/**
 * The module layering check (docs/decisions/0048-module-layering.md): no two folders of
 * `api/modules` import each other, directly or round a longer loop. dpdm (`npm run cycles`) finds
 * cycles between files only; two folders can import each other through files that never form one
 * (order/service.ts → payment/refunds.ts while payment/service.ts → order/service.ts), which hides
 * which module builds on which. Every import of every file counts, tests and type-only imports
 * included: each still ties one folder to the other.
 *
 * Usage: `npx tsx scripts/module-cycles.ts` (exit 1 with one line per loop, each import that makes
 * it named); `npm run cycles` runs it after dpdm, and scripts/module-cycles.test.ts holds the
 * repository to it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** The folder whose subfolders are the modules, relative to the repository root. */
export const MODULES_DIR = 'api/modules'

/** One import of a file of one module folder from a file of another. */
export interface ModuleImport {
  from: string
  to: string
  /** The importing file and the imported one, relative to the repository root. */
  file: string
  target: string
}

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`: the specifier. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g

/**
 * The imports between module folders that `text`, the source of `file` (a path relative to the
 * repository root, inside MODULES_DIR), makes through relative specifiers.
 */
export function importsOf(file: string, text: string): ModuleImport[] {
  const from = folderOf(file)
  if (!from) return []
  const found: ModuleImport[] = []
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier!.startsWith('.')) continue
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier!))
    const to = folderOf(target)
    if (to && to !== from) found.push({ from, to, file, target })
  }
  return found
}

/** The module folder of a path relative to the repository root, or undefined outside MODULES_DIR. */
function folderOf(file: string): string | undefined {
  const rest = file.startsWith(`${MODULES_DIR}/`) ? file.slice(MODULES_DIR.length + 1) : undefined
  const slash = rest?.indexOf('/') ?? -1
  return rest && slash > 0 ? rest.slice(0, slash) : undefined
}

/**
 * The loops among module folders: each strongly connected set of two or more folders (Tarjan's
 * algorithm), as its folders in name order with the imports that join them, sorted.
 */
export function folderLoops(imports: readonly ModuleImport[]): { folders: string[]; imports: ModuleImport[] }[] {
  const next = new Map<string, Set<string>>()
  for (const i of imports) {
    if (!next.has(i.from)) next.set(i.from, new Set())
    next.get(i.from)!.add(i.to)
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const sets: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        set.push(w)
      } while (w !== v)
      if (set.length > 1) sets.push(set.sort())
    }
  }
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v)
  return sets
    .map((folders) => ({
      folders,
      imports: imports
        .filter((i) => folders.includes(i.from) && folders.includes(i.to))
        .sort((a, b) => a.file.localeCompare(b.file) || a.target.localeCompare(b.target)),
    }))
    .sort((a, b) => a.folders.join().localeCompare(b.folders.join()))
}

/** Every import between module folders of the repository at `root`. */
export function repositoryImports(root: string): ModuleImport[] {
  const found: ModuleImport[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(rel)
      else if (/\.(ts|tsx|mts)$/.test(entry.name)) found.push(...importsOf(rel, fs.readFileSync(path.join(root, rel), 'utf8')))
    }
  }
  walk(MODULES_DIR)
  return found
}

/** One line per loop: its folders, then each import that joins them. */
export function describeLoops(loops: ReturnType<typeof folderLoops>): string[] {
  return loops.map(
    (loop) => `${loop.folders.join(' <-> ')} import each other: ${loop.imports.map((i) => `${i.file} -> ${i.target}`).join(', ')}`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const lines = describeLoops(folderLoops(repositoryImports(process.cwd())))
  for (const line of lines) console.error(line)
  if (lines.length > 0) process.exit(1)
  console.log(`${MODULES_DIR}: no two module folders import each other`)
}
