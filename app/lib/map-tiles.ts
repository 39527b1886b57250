/**
 * The map's tile server (docs/delivery.md, "Live tracking"; docs/decisions/0074-live-tracking.md):
 * `MAP_TILE_URL` is a Leaflet tile URL template (Leaflet docs, "TileLayer": `{s}`, `{z}`, `{x}`,
 * `{y}`, optional `{r}`), e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`, with its credit in
 * `MAP_TILE_ATTRIBUTION` (most tile servers require one). Unset (the default): no map tiles, and the
 * order page draws its own diagram of the three points instead.
 */

/**
 * Checks a tile URL template: http(s), with `{z}`, `{x}` and `{y}`.
 * @throws Error naming what is wrong (the server refuses to start with it)
 */
export function parseTileUrl(raw: string): string {
  const template = raw.trim()
  if (!/^https?:\/\/[^/\s]+\/\S*$/.test(template))
    throw new Error('must be an http(s) URL template such as https://tile.example.com/{z}/{x}/{y}.png')
  for (const part of ['{z}', '{x}', '{y}']) if (!template.includes(part)) throw new Error(`must contain ${part}`)
  return template
}

/**
 * The source the Content-Security-Policy's `img-src` needs for the tiles (CSP Level 3, "host-source"):
 * the template's scheme and host, a `{s}` subdomain becoming `*` (`https://{s}.tile.example.com/…` →
 * `https://*.tile.example.com`).
 */
export function tileImageSource(template: string): string {
  const [, scheme, host] = /^(https?):\/\/([^/]+)/.exec(template) ?? []
  return `${scheme}://${(host ?? '').replace(/\{s\}/g, '*')}`
}
