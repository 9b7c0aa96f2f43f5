import { Effect, Either } from "effect"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { PHOTO_SIZES } from "../../src/modules/catalogue/rules"
import { en, fr } from "../../src/platform/messages"
import { DECODE_LIMITS, decodeLoad, MAX_PIXELS, normalizeFile, uploadDisposition, webpRenditions } from "../../src/platform/uploads"

// Bounded work on uploads (issue 23, item 12): four 154 kB PNGs of 6300 × 6300 pixels took the server
// to about 1.5 GB, each decoded whole into raw pixels, as many at once as arrived.

/** A flat PNG: tiny on disk whatever its pixel count, as a hostile upload is. */
const flatPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png({ compressionLevel: 9 })
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer))

const renditions = (bytes: Uint8Array) => webpRenditions("photo", bytes, PHOTO_SIZES, "upload.unsupportedImage")

describe("uploaded images", () => {
  it("over 25 megapixels are refused from their header with a clear 413, in both languages", async () => {
    const huge = await flatPng(6300, 6300)
    expect(huge.length).toBeLessThan(200_000)
    for (const refused of [
      await Effect.runPromise(Effect.flip(renditions(huge))),
      await Effect.runPromise(Effect.flip(normalizeFile("avatar", "image/png", huge, "upload.unsupportedImage")))
    ]) {
      expect(refused).toMatchObject({
        _tag: "PayloadTooLarge",
        code: "IMAGE_TOO_LARGE",
        key: "upload.tooManyPixels"
      })
    }
    expect(fr["upload.tooManyPixels"]).toContain("25 mégapixels")
    expect(en["upload.tooManyPixels"]).toContain("25 megapixels")
    expect(MAX_PIXELS).toBe(25_000_000)
  })

  it("at the limit still give every rendition, in the original's proportions", async () => {
    const photo = await flatPng(6000, 4000)
    const made = await Effect.runPromise(renditions(photo))
    expect(made.map((r) => [r.size, r.width, r.height])).toEqual([
      [400, 400, 267],
      [800, 800, 533],
      [1600, 1600, 1067]
    ])
  })

  it("decode two at a time, and past the waiting room the rest are refused as busy (503 with Retry-After)", async () => {
    const photo = await flatPng(3000, 2000)
    const attempts = DECODE_LIMITS.atOnce + DECODE_LIMITS.waiting + 3
    let mostRunning = 0
    const watch = setInterval(() => {
      mostRunning = Math.max(mostRunning, decodeLoad().running)
    }, 1)
    const outcomes = await Promise.all(Array.from({ length: attempts }, () => Effect.runPromise(Effect.either(renditions(photo)))))
    clearInterval(watch)
    const refused = outcomes.flatMap((o) => (Either.isLeft(o) ? [o.left] : []))
    expect(refused).toHaveLength(3)
    for (const error of refused)
      expect(error).toMatchObject({ _tag: "ServiceUnavailable", code: "UPLOADS_BUSY", retryAfterSeconds: DECODE_LIMITS.retryAfterSeconds })
    expect(mostRunning).toBeGreaterThan(0)
    expect(mostRunning).toBeLessThanOrEqual(DECODE_LIMITS.atOnce)
    expect(decodeLoad()).toEqual({ admitted: 0, running: 0 })
  })
})

describe("uploaded files served back", () => {
  it("are shown in place when images, downloaded when anything else (a PDF never opens on the app's origin)", () => {
    expect(uploadDisposition("image/jpeg", "photo.jpg")).toMatch(/^inline;/)
    expect(uploadDisposition("application/pdf", "facture.pdf")).toMatch(/^attachment;/)
  })
})
