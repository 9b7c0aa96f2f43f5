import { Effect } from "effect"
import sharp from "sharp"
import { PersonalData } from "../../src/modules/privacy/ports"
import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { newProvider } from "../support/accounts"
import { expectError, registration } from "../support/http"
import { httpWorld } from "../support/world"
import {
  bigPngLike,
  FIVE_MB,
  fileOf,
  getBinary,
  jpegWithExif,
  pdf,
  png,
  sendForm,
  storedKeys,
  uploadedFiles,
  webp
} from "../profiles/support"

const { server, api } = httpWorld()

interface Photo {
  readonly id: string
  readonly url: string
  readonly thumbnailUrl: string
  readonly srcset: string
  readonly width: number
  readonly height: number
}

/** The file is not (or no longer) served: 404 PHOTO_NOT_FOUND. */
const expectNoFile = async (path: string) => {
  const reply = await getBinary(server, path)
  expect([reply.status, reply.body?.code]).toEqual([404, "PHOTO_NOT_FOUND"])
}

let counter = 0
const newService = async (token: string) => {
  const reply = await api.post(
    "/api/services",
    {
      title: `Ménage de printemps n°${++counter}`,
      description: "Grand ménage de printemps, vitres comprises.",
      price: 40,
      duration: 120,
      location: "Montréal, QC",
      lat: 45.52,
      lng: -73.58,
      categoryId: 5
    },
    { token }
  )
  expect(reply.status, reply.text).toBe(201)
  return reply.body.data.service as { id: string; photos: ReadonlyArray<Photo>; images: ReadonlyArray<string> }
}

const photoForm = (file: File) => {
  const form = new FormData()
  form.append("photo", file)
  return form
}
const upload = (serviceId: string, file: File, token: string, language?: string) =>
  sendForm(server, "POST", `/api/services/${serviceId}/photos`, photoForm(file), { token, ...(language ? { language } : {}) })
const addPhoto = async (serviceId: string, token: string, color = "#3366ff", width = 1200, height = 900) => {
  const reply = await upload(serviceId, fileOf(await png(width, height, color), "photo.png"), token)
  expect(reply.status, reply.text).toBe(201)
  return reply.body.data.photos as ReadonlyArray<Photo>
}
const detail = async (serviceId: string, token?: string) => {
  const reply = await api.get(`/api/services/${serviceId}`, token ? { token } : {})
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.service as { photos: ReadonlyArray<Photo>; images: ReadonlyArray<string> }
}

describe("service photos", () => {
  it("stores WebP renditions without metadata, served at immutable addresses with their srcset, shown on the service and its card", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    expect(service.photos).toEqual([])

    const exif = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: "#ff8800" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "SECRET-EXIF-MARKER" } })
      .toBuffer()
    const reply = await upload(service.id, fileOf(new Uint8Array(exif), "vacances.jpg", "image/jpeg"), provider.token)
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.message).toBe(fr["catalogue.photoAdded"])
    const [photo] = reply.body.data.photos as ReadonlyArray<Photo>
    const base = `/api/services/${service.id}/photos/${photo!.id}`
    expect(photo).toEqual({
      id: photo!.id,
      url: `${base}/800`,
      thumbnailUrl: `${base}/400`,
      srcset: `${base}/400 400w, ${base}/800 800w, ${base}/1600 1600w`,
      width: 1600,
      height: 1200
    })
    for (const [size, width, height] of [
      [400, 400, 300],
      [800, 800, 600],
      [1600, 1600, 1200]
    ] as const) {
      const file = await getBinary(server, `${base}/${size}`)
      expect(file.status).toBe(200)
      expect(file.headers.get("content-type")).toBe("image/webp")
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect(Buffer.from(file.bytes).includes("SECRET-EXIF-MARKER")).toBe(false)
      const meta = await sharp(file.bytes).metadata()
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["webp", width, height, undefined])
    }
    // An unknown size or photo is a 404; so is a malformed photo id.
    await expectNoFile(`${base}/1200`)
    await expectNoFile(`/api/services/${service.id}/photos/${crypto.randomUUID()}/400`)
    await expectNoFile(`/api/services/${service.id}/photos/not-an-id/400`)

    // The service's detail and its card in the lists show it.
    expect((await detail(service.id)).photos).toEqual([photo])
    expect((await detail(service.id)).images).toEqual([photo!.url])
    const list = await api.get(`/api/services?provider=${provider.id}`)
    expect(list.body.data.services[0].photos).toEqual([photo])
  })

  it("keeps a small picture's size (never enlarged) and lists only the renditions it has", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    const [portrait, small] = [
      ...(await addPhoto(service.id, provider.token, "#123456", 600, 900)),
      ...(await addPhoto(service.id, provider.token, "#654321", 300, 450)).slice(1)
    ]
    // Portrait 600×900: 400 (267×400), 800 (533×800), and itself as the 1600.
    const base = `/api/services/${service.id}/photos/${portrait!.id}`
    expect(portrait).toMatchObject({ srcset: `${base}/400 267w, ${base}/800 533w, ${base}/1600 600w`, width: 600, height: 900 })
    // 300×450 fits 800: 400 (267×400) and itself as the 800, no 1600.
    const smallBase = `/api/services/${service.id}/photos/${small!.id}`
    expect(small).toMatchObject({
      srcset: `${smallBase}/400 267w, ${smallBase}/800 300w`,
      width: 300,
      height: 450,
      url: `${smallBase}/800`
    })
    await expectNoFile(`${smallBase}/1600`)
  })

  it("refuses what is not a JPEG, PNG or WebP picture, an empty file, over 5 MB, and a ninth photo, in the user's language", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    const before = uploadedFiles(server).length
    const html = new Uint8Array(Buffer.from("<!doctype html><script>alert(1)</script>"))
    const svg = new Uint8Array(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))
    for (const [bytes, name] of [
      [html, "photo.jpg"],
      [svg, "photo.png"],
      [svg, "photo.svg"],
      [pdf(), "photo.webp"]
    ] as const) {
      const reply = await upload(service.id, fileOf(bytes, name, "image/jpeg"), provider.token)
      expectError(reply, 415, "UNSUPPORTED_FILE_TYPE")
      expect(reply.body.message).toBe(fr["upload.unsupportedImage"])
    }
    const english = await upload(service.id, fileOf(html, "photo.jpg", "image/jpeg"), provider.token, "en")
    expect(english.body.message).toBe(en["upload.unsupportedImage"])
    // A JPEG header on bytes that do not decode.
    const broken = new Uint8Array(2000)
    broken.set([0xff, 0xd8, 0xff, 0xe0])
    expectError(await upload(service.id, fileOf(broken, "photo.jpg"), provider.token), 415, "UNSUPPORTED_FILE_TYPE")

    const empty = await upload(service.id, fileOf(new Uint8Array(0), "photo.jpg"), provider.token)
    expectError(empty, 422, "VALIDATION_ERROR")
    expect(empty.body.details).toEqual([{ field: "photo", message: fr["upload.empty"] }])
    const oversize = await upload(service.id, fileOf(bigPngLike(FIVE_MB + 1), "big.png"), provider.token, "en")
    expectError(oversize, 413, "FILE_TOO_LARGE")
    expect(oversize.body.message).toBe(en["upload.tooLarge"])
    const missing = await sendForm(server, "POST", `/api/services/${service.id}/photos`, new FormData(), { token: provider.token })
    expectError(missing, 422, "VALIDATION_ERROR")
    const json = await api.post(`/api/services/${service.id}/photos`, { photo: "x" }, { token: provider.token })
    expectError(json, 415, "MULTIPART_REQUIRED")
    expect(uploadedFiles(server).length).toBe(before)

    // Eight photos (any of the three formats), then a ninth is refused.
    for (let i = 0; i < 6; i++) await addPhoto(service.id, provider.token, `#${(i + 1).toString(16)}0${i}0${i}0`, 40, 30)
    expect((await upload(service.id, fileOf(await webp(40, 30), "w.webp"), provider.token)).status).toBe(201)
    expect((await upload(service.id, fileOf(await jpegWithExif(40, 30), "j.jpg"), provider.token)).status).toBe(201)
    const ninth = await upload(service.id, fileOf(await png(40, 30), "n.png"), provider.token, "en")
    expectError(ninth, 422, "VALIDATION_ERROR")
    expect(ninth.body.details).toEqual([{ field: "photo", message: en["catalogue.tooManyPhotos"].replace("{max}", "8") }])
    expect((await detail(service.id, provider.token)).photos).toHaveLength(8)
  })

  it("lets only the owner add, delete or order photos", async () => {
    const owner = await newProvider(server, api)
    const other = await newProvider(server, api)
    const service = await newService(owner.token)
    const photos = await addPhoto(service.id, owner.token)
    const photoId = photos[0]!.id

    const adding = await upload(service.id, fileOf(await png(40, 30), "p.png"), other.token)
    expectError(adding, 403, "NOT_SERVICE_OWNER")
    expect(adding.body.message).toBe(fr["catalogue.notOwner"])
    expectError(await api.call("DELETE", `/api/services/${service.id}/photos/${photoId}`, { token: other.token }), 403, "NOT_SERVICE_OWNER")
    expectError(
      await api.call("PUT", `/api/services/${service.id}/photos/order`, { token: other.token, json: { photoIds: [photoId] } }),
      403,
      "NOT_SERVICE_OWNER"
    )
    // Without a session: 401; an unknown service: 404.
    expect((await sendForm(server, "POST", `/api/services/${service.id}/photos`, photoForm(fileOf(await png(), "p.png")))).status).toBe(401)
    expectError(await upload(crypto.randomUUID(), fileOf(await png(), "p.png"), owner.token), 404, "SERVICE_NOT_FOUND")
    expect((await detail(service.id)).photos.map((p) => p.id)).toEqual([photoId])
  })

  it("orders and deletes photos: the first is the cover, the deleted one's files go", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    await addPhoto(service.id, provider.token, "#ff0000")
    await addPhoto(service.id, provider.token, "#00ff00")
    const [a, b, c] = await addPhoto(service.id, provider.token, "#0000ff")
    const order = (ids: ReadonlyArray<unknown>, language?: string) =>
      api.call("PUT", `/api/services/${service.id}/photos/order`, {
        token: provider.token,
        json: { photoIds: ids },
        ...(language ? { language } : {})
      })

    const reordered = await order([c!.id, a!.id, b!.id])
    expect(reordered.status, reordered.text).toBe(200)
    expect(reordered.body.message).toBe(fr["catalogue.photosReordered"])
    expect((reordered.body.data.photos as ReadonlyArray<Photo>).map((p) => p.id)).toEqual([c!.id, a!.id, b!.id])
    expect((await detail(service.id)).photos.map((p) => p.id)).toEqual([c!.id, a!.id, b!.id])
    // The cover (first photo) is blue.
    const cover = await getBinary(server, (await detail(service.id)).photos[0]!.thumbnailUrl)
    const { dominant } = await sharp(cover.bytes).stats()
    expect(dominant.b).toBeGreaterThan(200)

    // An order that misses, repeats or invents a photo is refused.
    for (const wrong of [
      [c!.id, a!.id],
      [c!.id, a!.id, a!.id],
      [c!.id, a!.id, b!.id, crypto.randomUUID()],
      [c!.id, a!.id, "x"]
    ]) {
      const reply = await order(wrong, "en")
      expectError(reply, 422, "VALIDATION_ERROR")
      expect(reply.body.details).toEqual([{ field: "photoIds", message: en["catalogue.photoOrderMismatch"] }])
    }
    expectError(
      await api.call("PUT", `/api/services/${service.id}/photos/order`, { token: provider.token, json: {} }),
      422,
      "VALIDATION_ERROR"
    )

    const keysBefore = await storedKeys(server)
    const removed = await api.call("DELETE", `/api/services/${service.id}/photos/${a!.id}`, { token: provider.token })
    expect(removed.status, removed.text).toBe(200)
    expect((removed.body.data.photos as ReadonlyArray<Photo>).map((p) => p.id)).toEqual([c!.id, b!.id])
    expect((await storedKeys(server)).length).toBe(keysBefore.length - 3)
    await expectNoFile(a!.url)
    expectError(await api.call("DELETE", `/api/services/${service.id}/photos/${a!.id}`, { token: provider.token }), 404, "PHOTO_NOT_FOUND")
    // The remaining ones can still be ordered (positions closed up).
    expect((await order([b!.id, c!.id])).status).toBe(200)
    expect((await detail(service.id)).photos.map((p) => p.id)).toEqual([b!.id, c!.id])
  })

  it("copies the photos with a duplicated service (its own files), and removes them with a deleted service", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    await addPhoto(service.id, provider.token, "#ff0000")
    const original = await addPhoto(service.id, provider.token, "#00ff00")
    const copyReply = await api.post(`/api/services/${service.id}/duplicate`, {}, { token: provider.token })
    expect(copyReply.status, copyReply.text).toBe(201)
    const copy = copyReply.body.data.service as { id: string; photos: ReadonlyArray<Photo> }
    expect(copy.photos).toHaveLength(2)
    expect(copy.photos.map((p) => p.id)).not.toEqual(original.map((p) => p.id))
    expect(copy.photos.map((p) => [p.width, p.height])).toEqual(original.map((p) => [p.width, p.height]))
    const copied = await getBinary(server, copy.photos[1]!.url)
    expect(copied.status).toBe(200)
    expect(Buffer.from(copied.bytes).equals(Buffer.from((await getBinary(server, original[1]!.url)).bytes))).toBe(true)

    // Deleting the original removes its photos and files; the copy keeps its own.
    const keys = await storedKeys(server)
    expect((await api.call("DELETE", `/api/services/${service.id}`, { token: provider.token })).status).toBe(200)
    expect(await storedKeys(server)).toHaveLength(keys.length - 6)
    await expectNoFile(original[0]!.url)
    expect((await getBinary(server, copy.photos[0]!.url)).status).toBe(200)
  })

  it("removes a deleted account's photos and lists them in its data export", async () => {
    const provider = await newProvider(server, api)
    const service = await newService(provider.token)
    const [photo] = await addPhoto(service.id, provider.token)
    const archive = await server.run(Effect.flatMap(PersonalData, (data) => data.archive(provider.id, new Date())))
    expect(archive.services).toEqual([
      expect.objectContaining({
        id: service.id,
        photos: [
          {
            id: photo!.id,
            position: 0,
            createdAt: expect.any(String),
            renditions: [400, 800, 1600].map((size) => ({
              size,
              width: expect.any(Number),
              height: expect.any(Number),
              bytes: expect.any(Number)
            }))
          }
        ]
      })
    ])
    const keys = await storedKeys(server)
    const deleted = await api.post("/api/account/delete", { password: registration().password }, { token: provider.token })
    expect(deleted.status, deleted.text).toBe(200)
    expect(await storedKeys(server)).toHaveLength(keys.length - 3)
    await expectNoFile(photo!.url)
  })
})
