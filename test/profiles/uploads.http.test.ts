import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { freshUser } from "../support/accounts"
import { expectError } from "../support/http"
import { httpWorld } from "../support/world"
import {
  bigPngLike,
  FIVE_MB,
  fileOf,
  getBinary,
  jpegWithExif,
  pdf,
  png,
  pngWithText,
  sendForm,
  storedKeys,
  uploadedFiles,
  uploadsDirOf,
  webp
} from "./support"

const { server, api } = httpWorld()

const avatarForm = (file: File) => {
  const form = new FormData()
  form.append("avatar", file)
  return form
}
const avatarKey = (userId: string) =>
  server
    .run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ key: string | null }>`SELECT avatar_key AS key FROM users WHERE id = ${userId}`)
    )
    .then((rows) => rows[0]?.key ?? null)

const filesOnDisk = async () => uploadedFiles(server)

describe("POST /api/uploads/avatar", () => {
  it("stores a JPEG, PNG or WebP under a generated name, re-encoded without metadata, and serves it", async () => {
    const { user, token } = await freshUser(server, api)
    const exif = await jpegWithExif()
    expect(Buffer.from(exif).includes("SECRET-EXIF-MARKER")).toBe(true)
    const reply = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(exif, "holiday photo.jpg", "image/jpeg")), {
      token
    })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data).toMatchObject({ hasAvatar: true, contentType: "image/jpeg" })
    expect(reply.body.message).toBe(fr["profile.avatarUpdated"])
    const key = await avatarKey(user.id)
    expect(key).toMatch(/^avatars\/[0-9a-f-]{36}$/)
    const file = await getBinary(server, reply.body.data.avatarUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("image/jpeg")
    expect(Buffer.from(file.bytes).includes("SECRET-EXIF-MARKER")).toBe(false)
    const meta = await sharp(file.bytes).metadata()
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["jpeg", 16, 12, undefined])

    // A PNG text chunk is dropped too; the previous avatar's file is removed.
    const withText = await pngWithText()
    const second = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(withText, "a.png")), { token })
    expect(second.status, second.text).toBe(200)
    const secondKey = await avatarKey(user.id)
    expect(secondKey).not.toBe(key)
    expect(await storedKeys(server)).not.toContain(key)
    const served = await getBinary(server, second.body.data.avatarUrl)
    expect(Buffer.from(served.bytes).includes("SECRET-PNG-MARKER")).toBe(false)
    expect((await sharp(served.bytes).metadata()).format).toBe("png")

    const third = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await webp(), "w.webp")), { token })
    expect(third.status, third.text).toBe(200)
    expect(third.body.data.contentType).toBe("image/webp")
  })

  it("decides the type from the content: a PNG named .pdf is stored as PNG; a PDF named .png is refused (415)", async () => {
    const { user, token } = await freshUser(server, api)
    const renamed = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "scan.pdf", "application/pdf")), {
      token
    })
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.body.data.contentType).toBe("image/png")
    const before = await storedKeys(server)
    const keyBefore = await avatarKey(user.id)

    const fakePng = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(pdf(), "photo.png", "image/png")), { token })
    expectError(fakePng, 415, "UNSUPPORTED_FILE_TYPE")
    expect(fakePng.body.message).toBe("Format de fichier non supporté (JPEG, PNG, WebP uniquement)")
    const english = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(pdf(), "photo.png", "image/png")), {
      token,
      language: "en"
    })
    expect(english.body.message).toBe(en["upload.unsupportedImage"])
    // Text, HTML or a truncated image are refused the same way.
    for (const bytes of [Buffer.from("hello"), Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), (await png()).slice(0, 40)]) {
      expectError(
        await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(bytes, "x.png")), { token }),
        415,
        "UNSUPPORTED_FILE_TYPE"
      )
    }
    expect(await storedKeys(server)).toEqual(before)
    expect(await avatarKey(user.id)).toBe(keyBefore)
  })

  it("a 5 MB + 1 byte file is a 413 with the spec's message; exactly 5 MB passes the size check", async () => {
    const { user, token } = await freshUser(server, api)
    const before = await filesOnDisk()
    const tooBig = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(bigPngLike(FIVE_MB + 1), "big.png")), { token })
    expectError(tooBig, 413, "FILE_TOO_LARGE")
    expect(tooBig.body.message).toBe("Le fichier est trop volumineux (max 5MB)")
    // Exactly 5 MB is within the limit: this one is refused for its content (not a decodable PNG), not its size.
    const exactly = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(bigPngLike(FIVE_MB), "big.png")), { token })
    expectError(exactly, 415, "UNSUPPORTED_FILE_TYPE")
    expect(await filesOnDisk()).toEqual(before)
    expect(await avatarKey(user.id)).toBeNull()
    // The server still answers on the same connection pool afterwards.
    expect((await api.get("/api/uploads/avatar", { token })).body.data.hasAvatar).toBe(false)
  })

  it("an empty file is a 422; no file, a text field or a JSON body are refused without a 500", async () => {
    const { user, token } = await freshUser(server, api)
    const empty = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(new Uint8Array(0), "empty.png")), { token })
    expectError(empty, 422, "VALIDATION_ERROR")
    expect(empty.body.details).toEqual([{ field: "avatar", message: fr["upload.empty"] }])
    const none = await sendForm(server, "POST", "/api/uploads/avatar", new FormData(), { token })
    expectError(none, 422, "VALIDATION_ERROR")
    expect(none.body.details).toEqual([{ field: "avatar", message: fr["upload.required"] }])
    const textField = new FormData()
    textField.append("avatar", "not a file")
    expectError(await sendForm(server, "POST", "/api/uploads/avatar", textField, { token }), 422, "VALIDATION_ERROR")
    const twice = avatarForm(fileOf(await png(), "a.png"))
    twice.append("avatar", fileOf(await png(), "b.png"))
    expectError(await sendForm(server, "POST", "/api/uploads/avatar", twice, { token }), 400, "MALFORMED_REQUEST")
    expectError(await api.post("/api/uploads/avatar", { avatar: "x" }, { token }), 415, "MULTIPART_REQUIRED")
    const broken = await api.call("POST", "/api/uploads/avatar", {
      token,
      raw: '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nabc',
      headers: { "content-type": "multipart/form-data; boundary=x" }
    })
    expect([400, 415, 422]).toContain(broken.status)
    expect(await avatarKey(user.id)).toBeNull()
  })

  it("a file name with ../ never reaches the file system: stored under a generated name", async () => {
    const { user, token } = await freshUser(server, api)
    for (const [name, type] of [
      ["../../../evil.png", "image/png"],
      ["..\\..\\evil.png", "application/octet-stream"],
      ["/etc/passwd", "text/plain"],
      ["../photo été….png", "image/png"],
      ["%2e%2e%2fevil.png", ""]
    ]) {
      const reply = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), name!, type)), { token })
      expect(reply.status, `${name}: ${reply.text}`).toBe(200)
    }
    // A control character in the part's headers is a malformed body.
    expectError(
      await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "a\u0000b.png")), { token }),
      400,
      "MALFORMED_REQUEST"
    )
    expect(await avatarKey(user.id)).toMatch(/^avatars\/[0-9a-f-]{36}$/)
    expect(fs.existsSync(path.resolve(uploadsDirOf(server), "../../../evil.png"))).toBe(false)
    expect(fs.existsSync(path.resolve(uploadsDirOf(server), "..", "evil.png"))).toBe(false)
    for (const file of await filesOnDisk())
      expect(path.relative(uploadsDirOf(server), file)).toMatch(/^(avatars|profile-photos|applications|service-photos)\/[0-9a-f-]{36}$/)
  })

  it("needs a session", async () => {
    const reply = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "a.png")))
    expectError(reply, 401, "UNAUTHENTICATED")
  })
})

describe("GET and DELETE /api/uploads/avatar; GET /api/users/{id}/profile-photo(/file)", () => {
  it("reads, deletes (file removed) and reports the profile photo", async () => {
    const { user, token } = await freshUser(server, api)
    const none = await api.get(`/api/users/${user.id}/profile-photo`)
    expect(none.body.data).toEqual({ profilePhotoUrl: null, hasProfilePhoto: false, photoSource: null })
    expectError(await getBinary(server, `/api/users/${user.id}/profile-photo/file`), 404, "PHOTO_NOT_FOUND")

    const uploaded = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "me.png")), { token })
    const key = await avatarKey(user.id)
    const read = await api.get("/api/uploads/avatar", { token })
    expect(read.body.data).toMatchObject({ hasAvatar: true, avatarUrl: uploaded.body.data.avatarUrl, contentType: "image/png" })
    const photo = await api.get(`/api/users/${user.id}/profile-photo`)
    expect(photo.body.data).toEqual({ profilePhotoUrl: uploaded.body.data.avatarUrl, hasProfilePhoto: true, photoSource: "avatar" })
    const file = await getBinary(server, `/api/users/${user.id}/profile-photo/file`)
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/png"])

    const deleted = await api.call("DELETE", "/api/uploads/avatar", { token })
    expect(deleted.status).toBe(200)
    expect(deleted.body.data.hasAvatar).toBe(false)
    expect(deleted.body.message).toBe(fr["profile.avatarDeleted"])
    expect(await storedKeys(server)).not.toContain(key)
    expect((await api.call("DELETE", "/api/uploads/avatar", { token })).body.message).toBe(fr["profile.noAvatar"])
    expect((await api.get(`/api/users/${user.id}/profile-photo`)).body.data.hasProfilePhoto).toBe(false)
  })

  it("a private profile's photo is served to its owner and admins only", async () => {
    const owner = await freshUser(server, api)
    const other = await freshUser(server, api)
    const admin = await freshUser(server, api, "ADMIN")
    await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "me.png")), { token: owner.token })
    await api.patch("/api/users/me", { profileVisibility: "PRIVATE" }, { token: owner.token })
    const url = `/api/users/${owner.user.id}/profile-photo/file`
    expectError(await getBinary(server, url), 403, "PROFILE_NOT_ACCESSIBLE")
    expectError(await getBinary(server, url, other.token), 403, "PROFILE_NOT_ACCESSIBLE")
    expect((await getBinary(server, url, owner.token)).status).toBe(200)
    expect((await getBinary(server, url, admin.token)).status).toBe(200)
    expectError(await api.get(`/api/users/${owner.user.id}/profile-photo`), 403, "PROFILE_NOT_ACCESSIBLE")
  })

  it("unknown or malformed ids are 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope", "1%27%20OR%201=1"]) {
      expectError(await api.get(`/api/users/${id}/profile-photo`), 404, "PROFILE_NOT_FOUND")
    }
  })
})

describe("the provider's photo on service views", () => {
  it("names a public provider's avatar, which a visitor can load; a private profile's cards show none", async () => {
    const { user, token } = await freshUser(server, api, "PROVIDER")
    const [service] = await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{
          id: string
        }>`INSERT INTO services (user_id, category_id, title, description, price_minor, duration_minutes, location)
          VALUES (${user.id}, 1, 'Dépannage informatique', 'À domicile.', 4500, 60, 'Montréal') RETURNING id`
      )
    )
    const shown = async () => (await api.get(`/api/services/${service!.id}`)).body.data.service.user.avatarUrl as string | null
    expect(await shown()).toBeNull()

    const uploaded = await sendForm(server, "POST", "/api/uploads/avatar", avatarForm(fileOf(await png(), "moi.png", "image/png")), {
      token
    })
    expect(uploaded.status, uploaded.text).toBe(200)
    expect(await shown()).toBe(uploaded.body.data.avatarUrl)
    const listed = (await api.get(`/api/services?provider=${user.id}`)).body.data.services[0]
    expect(listed.user.avatarUrl).toBe(uploaded.body.data.avatarUrl)
    // Without a token, as an <img> on a card loads it.
    expect((await getBinary(server, uploaded.body.data.avatarUrl)).status).toBe(200)

    await server.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE users SET profile_visibility = 'PRIVATE' WHERE id = ${user.id}`)
    )
    expect(await shown()).toBeNull()
  })
})
