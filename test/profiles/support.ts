import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import sharp from "sharp"
import { expect } from "vitest"
import { Identity, type User } from "../../src/modules/identity"
import type { AppConfigShape } from "../../src/platform/config"
import { Storage } from "../../src/platform/storage"
import { expectWellFormed, type httpClient, type Reply } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

type Api = ReturnType<typeof httpClient>

export const login = async (api: Api, email: string, password: string) => {
  const reply = await api.post("/api/auth/login", { email, password })
  if (reply.status !== 200) throw new Error(`login ${email}: ${reply.status} ${reply.text}`)
  return reply.body.data.token as string
}

let counter = 0
/** A fresh verified account with the given role, logged in. */
export const freshUser = async (
  server: TestServer,
  api: Api,
  role: "CLIENT" | "PROVIDER" | "ADMIN" = "CLIENT",
  overrides: { firstName?: string; lastName?: string; preferredLanguage?: "fr" | "en" } = {}
): Promise<{ user: User; email: string; password: string; token: string }> => {
  const email = `pro.${role.toLowerCase()}.${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
  const password = "Passw0rd!"
  const user = await server.run(
    Effect.flatMap(Identity, (identity) =>
      identity.createAccount({
        firstName: overrides.firstName ?? "Zoé",
        lastName: overrides.lastName ?? "Lévesque",
        email,
        phoneNumber: "5145550177",
        password,
        confirmPassword: password,
        role,
        ...(overrides.preferredLanguage ? { preferredLanguage: overrides.preferredLanguage } : {})
      })
    )
  )
  return { user, email, password, token: await login(api, email, password) }
}

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

/** The real app on a fresh database with a DATA_DIR known to the test (uploads go to DATA_DIR/uploads). */
export const startServerWithDataDir = async (overrides: Partial<AppConfigShape> = {}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-uploads-"))
  const server = await startTestServer({ dataDir, ...overrides })
  return { server, uploadsDir: path.join(dataDir, "uploads") }
}

/** Every file under an uploads folder, walked on disk (not through the storage port). */
export const filesUnder = (root: string) =>
  fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : []

export const expectError = (reply: Reply, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.body.code, reply.text).toBe(code)
}
