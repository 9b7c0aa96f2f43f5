import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import sharp from "sharp"
import { Storage } from "../../src/platform/storage"
import { expectWellFormed, type Reply } from "../support/http"
import type { TestServer } from "../support/server"

/** Sends a multipart form (fetch's FormData) and checks the answer like every other call. */
export const sendForm = async (
  server: TestServer,
  method: string,
  path: string,
  form: FormData,
  options: { token?: string; language?: string } = {}
): Promise<Reply> => {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.language) headers["accept-language"] = options.language
  const res = await fetch(server.url + path, { method, headers, body: form })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const reply = { status: res.status, headers: res.headers, text, body, cookies: {} }
  expectWellFormed(path, reply)
  return reply
}

export const fileOf = (bytes: Uint8Array, name: string, type = "application/octet-stream") => new File([Buffer.from(bytes)], name, { type })

/** A binary GET (images, documents): answers status, headers and bytes (and, for an error, its JSON reply). */
export const getBinary = async (server: TestServer, path: string, token?: string): Promise<Reply & { readonly bytes: Uint8Array }> => {
  const res = await fetch(server.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (res.status >= 400) {
    const reply = {
      status: res.status,
      headers: res.headers,
      text: Buffer.from(bytes).toString("utf8"),
      body: JSON.parse(Buffer.from(bytes).toString("utf8")),
      cookies: {}
    }
    expectWellFormed(path, reply)
    return { ...reply, bytes }
  }
  return { status: res.status, headers: res.headers, text: "", body: undefined, cookies: {}, bytes }
}

// ---- Real files --------------------------------------------------------------------------------

export const png = (width = 8, height = 8, color = "#3366ff") =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b))

export const webp = (width = 8, height = 8) =>
  sharp({ create: { width, height, channels: 3, background: "#22aa44" } })
    .webp()
    .toBuffer()
    .then((b) => new Uint8Array(b))

/** A JPEG carrying EXIF metadata (a copyright and a camera make) that uploads must strip. */
export const jpegWithExif = (width = 16, height = 12) =>
  sharp({ create: { width, height, channels: 3, background: "#ff8800" } })
    .jpeg()
    .withExif({ IFD0: { Copyright: "SECRET-EXIF-MARKER", Make: "SpyCam" } })
    .toBuffer()
    .then((b) => new Uint8Array(b))

/** A PNG with a tEXt chunk ("Comment" = marker) inserted after IHDR. */
export const pngWithText = async (marker = "SECRET-PNG-MARKER") => {
  const base = Buffer.from(await png(8, 8))
  const data = Buffer.concat([Buffer.from("Comment\0", "latin1"), Buffer.from(marker, "latin1")])
  const type = Buffer.from("tEXt", "latin1")
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])))
  const ihdrEnd = 8 + 4 + 4 + 13 + 4
  return new Uint8Array(Buffer.concat([base.subarray(0, ihdrEnd), length, type, data, crc, base.subarray(ihdrEnd)]))
}

/** A small, valid one-page PDF. */
export const pdf = () => {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"
  ]
  let body = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((o, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(body, "latin1"))
}

/** Exactly `size` bytes that start like a PNG (the limit is checked before the content). */
export const bigPngLike = (size: number) => {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

export const FIVE_MB = 5 * 1024 * 1024

/** Every key in the server's storage (DATA_DIR/uploads), temporary files included. */
export const storedKeys = (server: TestServer) => server.run(Effect.flatMap(Storage, (s) => s.keys()))

/** The server's uploads folder (DATA_DIR/uploads). */
export const uploadsDirOf = (server: TestServer) => path.join(server.dataDir, "uploads")

/** Every file the server stored under its uploads folder, walked on disk (not through the storage port). */
export const uploadedFiles = (server: TestServer) => {
  const root = uploadsDirOf(server)
  return fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : []
}
