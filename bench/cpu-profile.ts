/**
 * The top self-time frames of a V8 CPU profile (`node --cpu-prof`, a `.cpuprofile` file: the
 * Chrome DevTools Protocol's `Profiler.Profile`, https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile),
 * over a window of the run only: its samples are stamped in µs of the monotonic clock, the clock of
 * `process.hrtime` (Node docs, "process.hrtime.bigint"), so a bench can name the window of its
 * measurement and leave the process's start-up out.
 *
 * `npx tsx bench/cpu-profile.ts <file.cpuprofile> [fromUs toUs]` prints the table.
 */
import fs from 'node:fs'
import path from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** One frame's self time in the window: ms and share of the busy (non-idle) time. */
export interface SelfTime {
  frame: string
  ms: number
  share: number
}

/** A frame's name as the table shows it: function, file (from its package or repository folder) and line. */
function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  if (!url) return functionName || '(anonymous)'
  const file = url.replace(/^file:\/\//, '')
  const modules = file.lastIndexOf('node_modules/')
  const short = modules >= 0 ? file.slice(modules + 'node_modules/'.length) : path.relative(process.cwd(), file)
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`
}

/**
 * Where a frame's code lives, for the by-package totals: the npm package (`pg`, `drizzle-orm`,
 * `@hono/node-server`), `node:` (Node's own JavaScript), `wasm`, the repository's folder (`api`,
 * `app`, `build` for the built BFF, `server.ts`), or the frame's name for V8's own entries
 * (`(garbage collector)`, `(program)`) and native calls (`writev`, `read`), kept apart as `native`.
 */
function packageOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'native'
  if (url.startsWith('node:')) return 'node:'
  if (url.startsWith('wasm:')) return 'wasm'
  const file = url.replace(/^file:\/\//, '')
  const modules = file.lastIndexOf('node_modules/')
  if (modules >= 0) {
    const parts = file.slice(modules + 'node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  return path.relative(process.cwd(), file).split('/')[0]!
}

/**
 * The `top` frames by self time among the samples stamped in [fromUs, toUs) (the whole profile
 * without a window), and the window's busy time in ms. Idle time is left out of the shares.
 */
export function topSelfTime(
  file: string,
  window: { fromUs: number; toUs: number } | null,
  top = 15,
): { busyMs: number; frames: SelfTime[]; packages: SelfTime[] } {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const byFrame = new Map<string, number>()
  const byPackage = new Map<string, number>()
  let at = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0
    if (window && (at < window.fromUs || at >= window.toUs)) continue
    const node = nodes.get(profile.samples[i]!)
    if (!node || node.callFrame.functionName === '(idle)') continue
    const name = frameName(node.callFrame)
    byFrame.set(name, (byFrame.get(name) ?? 0) + us)
    const where = packageOf(node.callFrame)
    byPackage.set(where, (byPackage.get(where) ?? 0) + us)
  }
  const busyUs = [...byFrame.values()].reduce((a, b) => a + b, 0)
  const ranked = (totals: Map<string, number>, n: number) =>
    [...totals.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([frame, us]) => ({ frame, ms: us / 1000, share: us / Math.max(1, busyUs) }))
  return { busyMs: busyUs / 1000, frames: ranked(byFrame, top), packages: ranked(byPackage, 12) }
}

/** The table of `topSelfTime` as Markdown lines. */
export function selfTimeTable(result: { busyMs: number; frames: SelfTime[]; packages: SelfTime[] }): string[] {
  return [
    `busy ${result.busyMs.toFixed(0)} ms; by package: ${result.packages.map((p) => `${p.frame} ${(p.share * 100).toFixed(0)} %`).join(', ')}`,
    '',
    '| self ms | share | frame |',
    '|---:|---:|---|',
    ...result.frames.map((f) => `| ${f.ms.toFixed(0)} | ${(f.share * 100).toFixed(1)} % | \`${f.frame}\` |`),
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, from, to] = process.argv.slice(2)
  if (!file) {
    console.error('usage: npx tsx bench/cpu-profile.ts <file.cpuprofile> [fromUs toUs]')
    process.exit(1)
  }
  const window = from && to ? { fromUs: Number(from), toUs: Number(to) } : null
  console.log(selfTimeTable(topSelfTime(file, window, 25)).join('\n'))
}
