import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import type { Brand } from "../brand"

interface Asset {
  readonly body: Uint8Array
  /** Compressed on first request and kept: compressing every file (source maps included) at start cost half a second. */
  gzip: Uint8Array | undefined
  readonly type: string
  readonly etag: string
  readonly immutable: boolean
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json"
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** index.html with its placeholders (`%SITE_NAME%`, `%PUBLIC_URL%`) filled in, escaped (by functions: `$&` in a name is no pattern). */
export const brandIndex = (html: string, brand: Brand) =>
  html.replaceAll("%SITE_NAME%", () => escapeHtml(brand.siteName)).replaceAll("%PUBLIC_URL%", () => escapeHtml(brand.publicUrl))

/** Loads the built UI once into memory, with gzip variants and etags. */
const loadAssets = (root: string, brand: Brand) => {
  const assets = new Map<string, Asset>()
  if (!fs.existsSync(root)) return assets
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else {
        const url = "/" + path.relative(root, full).split(path.sep).join("/")
        const body = url === "/index.html" ? Buffer.from(brandIndex(fs.readFileSync(full, "utf8"), brand)) : fs.readFileSync(full)
        assets.set(url, {
          body,
          gzip: undefined,
          type: TYPES[path.extname(full)] ?? "application/octet-stream",
          etag: `"${crypto.createHash("sha1").update(body).digest("base64url")}"`,
          // esbuild names hashed bundles assets/name-HASH.js: safe to cache for a year.
          immutable: url.startsWith("/assets/")
        })
      }
    }
  }
  walk(root)
  return assets
}

/** Serves the bundled React UI; unknown paths get index.html so client routes work on reload. */
export const staticUi = (root: string, brand: Brand) => {
  const assets = loadAssets(root, brand)
  return Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const pathname = decodeURIComponent(new URL(request.url, "http://x").pathname)
    const asset = assets.get(pathname) ?? (path.extname(pathname) === "" ? assets.get("/index.html") : undefined)
    if (!asset) return HttpServerResponse.text("Not found", { status: 404 })
    const headers = {
      "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
      etag: asset.etag,
      vary: "accept-encoding"
    }
    if (request.headers["if-none-match"] === asset.etag) return HttpServerResponse.empty({ status: 304, headers })
    const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
    if (gzip) asset.gzip ??= zlib.gzipSync(asset.body, { level: 9 })
    return HttpServerResponse.uint8Array(gzip ? asset.gzip! : asset.body, {
      contentType: asset.type,
      headers: gzip ? { ...headers, "content-encoding": "gzip" } : headers
    })
  })
}
