/**
 * A small cluster for the scale-out test (docs/scale-out.md, "Running more than one instance"): N production server processes
 * (server.ts) on one PostgreSQL database, and a round-robin proxy in front of them that behaves like
 * nginx's default upstream handling: each request goes to the next instance; when an instance
 * refuses the connection, closes a kept-alive connection as a request goes out on it, or drops an
 * idempotent (GET/HEAD) request before answering, the request is tried on the next one (nginx
 * `proxy_next_upstream error`, which never resends a non-idempotent request that an upstream took).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { onServer, urlOfDatabase } from '../../api/testing/pglite-template.ts'

const root = path.resolve(import.meta.dirname, '../..')

/** One server process and its port. */
export interface Instance {
  name: string
  port: number
  url: string
  process: ChildProcess
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>
  log: string[]
}

/** Starts server.ts in production mode on `port` with `env`; resolves at once (see `waitReady`). */
export function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log: string[] = []
  child.stdout!.on('data', (d) => log.push(String(d)))
  child.stderr!.on('data', (d) => log.push(String(d)))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      // A crash (a port taken, a failed migration) would otherwise show only as "not ready" 120 s later.
      if (code !== 0 && code !== null) console.error(`${name} (port ${port}) exited with ${code}:\n${log.join('').slice(-2000)}`)
      resolve(code)
    }),
  )
  return { name, port, url: `http://127.0.0.1:${port}`, process: child, exited, log }
}

/**
 * Waits until `${url}/readyz` answers 200; answers the milliseconds it took. Throws after `ms`, saying
 * what /readyz answered last (its status and the start of its body, or that nothing listened).
 */
export async function waitReady(url: string, ms = 120_000): Promise<number> {
  const started = Date.now()
  let last = 'nothing listening'
  while (Date.now() - started < ms) {
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })
      const body = await res.text()
      if (res.ok) return Date.now() - started
      last = `${res.status} ${body.slice(0, 300)}`
    } catch (err) {
      last = `no answer (${(err as Error).name})`
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${url} not ready within ${ms} ms; /readyz last: ${last}`)
}

/**
 * `waitReady` for a started instance: when it fails, the error also says whether the process has
 * exited (and with what code) and the end of its output, so a CI log shows why it never came up.
 */
export async function waitInstanceReady(instance: Instance, ms = 120_000): Promise<number> {
  let exitCode: number | null | undefined
  void instance.exited.then((code) => (exitCode = code))
  try {
    return await waitReady(instance.url, ms)
  } catch (err) {
    const state = exitCode === undefined ? 'still running' : `exited with ${exitCode}`
    throw new Error(
      `${instance.name}: ${(err as Error).message}; process ${state}; its output ends:\n${instance.log.join('').slice(-3000)}`,
      { cause: err },
    )
  }
}

/**
 * A round-robin proxy over `targets()` (read on every request, so instances can be swapped). Like a
 * load balancer's health check, it asks every instance's `/readyz` each 100 ms and sends new
 * requests only to the ready ones (all of them when none is), so an instance that starts draining
 * stops getting work before it closes its listener (docs/scale-out.md, "Rolling restarts": SHUTDOWN_DELAY_MS at least
 * the health-check interval).
 */
export async function startProxy(targets: () => string[]): Promise<{ url: string; close(): Promise<void> }> {
  const ready = new Map<string, boolean>()
  let checking = true
  const healthLoop = (async () => {
    while (checking) {
      await Promise.all(
        targets().map(async (target) => {
          try {
            const res = await fetch(`${target}/readyz`, { signal: AbortSignal.timeout(500) })
            await res.arrayBuffer()
            ready.set(target, res.ok)
          } catch {
            ready.set(target, false)
          }
        }),
      )
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  // FIFO: idle connections are reused in turn, as nginx's upstream keepalive cache does, so while an
  // instance drains every one of them meets its `Connection: close` answer.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'fifo' })
  let next = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const all = targets()
      const healthy = all.filter((t) => ready.get(t))
      const list = healthy.length > 0 ? healthy : all
      const idempotent = req.method === 'GET' || req.method === 'HEAD'
      // Like nginx: a new request takes the next instance in turn; a retry takes the one after the
      // instance that failed, so every instance is tried once before giving up.
      const first = next++
      const attempt = (tries: number) => {
        const target = new URL(list[(first + tries) % list.length]!)
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          },
        )
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          // Never processed: the connection was refused, or a kept-alive connection was closed by the
          // instance just as the request went out on it (Node docs, http `request.reusedSocket`: retry
          // then). nginx retries the latter for GET and HEAD only: docs/scale-out.md, "Balancer".
          const notSent = err.code === 'ECONNREFUSED' || (upstream.reusedSocket && err.code === 'ECONNRESET')
          if (tries + 1 < list.length && (notSent || idempotent) && !res.headersSent) return attempt(tries + 1)
          if (process.env.SCALE_DEBUG) console.log(`proxy 502: ${err.code} ${err.message} after ${tries + 1} tries to ${target.port}`)
          if (!res.headersSent) res.writeHead(502)
          res.end()
        })
        upstream.end(body)
      }
      attempt(0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      checking = false
      await healthLoop
      agent.destroy()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

/** The nginx binary: on PATH, or Debian's /usr/sbin/nginx (`apt-get install -y nginx`); null when absent. */
export function findNginx(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0) return candidate
  }
  return null
}

/**
 * The deployment's own nginx site (deploy/nginx.conf) made runnable here: its `upstream` servers
 * replaced by `targets` (host:port) and its `listen 80` by `127.0.0.1:port`; every other line as
 * shipped, inside the main-context lines a site file leaves to the distribution's nginx.conf (nginx
 * docs, "Core functionality": `daemon`, `master_process`, `pid`, `events`; `http` temp paths under
 * `dir`). Throws when deploy/nginx.conf no longer has the lines it replaces.
 */
export function nginxConfig(targets: string[], port: number, dir: string): string {
  const site = fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
  const serverLine = /^(\s*)server\s+app\d+:3000(\s[^;]*)?;\n/gm
  const lines = site.match(serverLine)
  if (!lines || !/^\s*listen 80;$/m.test(site)) throw new Error('deploy/nginx.conf: expected `server appN:3000 …;` lines and `listen 80;`')
  const options = /:3000(\s[^;]*)?;/.exec(lines[0]!)![1] ?? ''
  let replaced = false
  const upstreams = site.replace(serverLine, (_line, indent: string) => {
    if (replaced) return ''
    replaced = true
    return targets.map((target) => `${indent}server ${target}${options};\n`).join('')
  })
  const body = upstreams.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`)
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`
  return [
    'daemon off;',
    'master_process off;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
    body,
    '}',
    '',
  ].join('\n')
}

/**
 * Runs nginx (a child process, foreground) with `nginxConfig(targets, port, dir)`; resolves once it
 * answers on `port` (any status: the instances may not be up yet). `close()` stops it (SIGTERM, its
 * fast shutdown) and waits for the exit.
 */
export async function startNginx(targets: string[], port: number, dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const binary = findNginx()
  if (!binary) throw new Error('nginx is not installed (apt-get install -y nginx): the scale-out test runs deploy/nginx.conf')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'nginx.conf')
  fs.writeFileSync(file, nginxConfig(targets, port, dir))
  const child = spawn(binary, ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  const log: string[] = []
  child.stdout!.on('data', (d) => log.push(String(d)))
  child.stderr!.on('data', (d) => log.push(String(d)))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${log.join('')}`)
    const answered = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    )
    if (answered) break
    if (Date.now() - started > 10_000) throw new Error(`nginx did not answer on ${port}: ${log.join('')}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url,
    async close() {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** One request of a load: a GET path, or a method, path and JSON body. */
export type LoadRequest = string | { method: 'POST'; path: string; json: unknown }

/**
 * Runs `workers` loops of requests (round robin over `requests`) through `url` until `stop()`;
 * counts answers by status (0 = network error).
 */
export function startLoad(url: string, requests: LoadRequest[], workers = 8) {
  const statuses = new Map<number, number>()
  let running = true
  let i = 0
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      let status: number
      try {
        const request = requests[i++ % requests.length]!
        const res =
          typeof request === 'string'
            ? await fetch(`${url}${request}`, { signal: AbortSignal.timeout(10_000) })
            : await fetch(`${url}${request.path}`, {
                method: request.method,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(request.json),
                signal: AbortSignal.timeout(10_000),
              })
        await res.arrayBuffer()
        status = res.status
      } catch {
        status = 0
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  })
  return {
    statuses,
    async stop() {
      running = false
      await Promise.all(loops)
      return statuses
    },
  }
}

/**
/**
 * A fresh database `name` on the PostgreSQL server of `serverUrl` (instances started together on it
 * migrate it under their start-up lock). Answers its URL and `drop()`, which removes it even while
 * connections remain (PostgreSQL docs, "DROP DATABASE": `WITH (FORCE)`).
 */
export async function createDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  return { url: urlOfDatabase(serverUrl, name), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Kills `instances` (SIGKILL, waiting for each exit), drops database `name`, removes `dir`: a test file's clean-up. */
export async function tearDown(opts: { instances: Instance[]; serverUrl?: string; database: string; dir: string }): Promise<void> {
  for (const i of opts.instances) i.process.kill('SIGKILL')
  await Promise.all(opts.instances.map((i) => i.exited))
  if (opts.serverUrl) await onServer(opts.serverUrl, `DROP DATABASE IF EXISTS ${opts.database} WITH (FORCE)`)
  fs.rmSync(opts.dir, { recursive: true, force: true })
}
