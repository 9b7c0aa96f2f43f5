import { Effect, Either, Option } from "effect"
import fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { ageOn, latestProviderBirthDate } from "../../src/modules/identity/profile/rules"
import {
  badgesOf,
  cleanList,
  emptyProfile,
  noStatistics,
  profileAccess,
  type ProfileVisibility,
  validateProfilePatch
} from "../../src/modules/identity/profile/domain"
import { InMemoryStorage, isStorageKey, localDiskStorage, newStorageKey, Storage } from "../../src/platform/storage"
import { checkFile, contentDisposition, displayName, ImageTypes, normalizeFile, sniff } from "../../src/platform/uploads"
import { jpegWithExif, pdf, png, pngWithText, webp } from "./support"
import { scratchDir } from "../support/scratch"

const NOW = new Date("2025-06-15T12:00:00Z")
const issues = (result: Either.Either<unknown, { details: ReadonlyArray<{ field: string; key: string }> }>) =>
  Either.isLeft(result) ? result.left.details.map((d) => [d.field, d.key]) : []

describe("profile edit rules", () => {
  it("lists: trimmed, inner spaces collapsed, blanks and case-insensitive duplicates dropped, order kept", () => {
    expect(cleanList([" Plomberie ", "plomberie", "", "  ", "Chauffage  central", "CHAUFFAGE central"])).toEqual([
      "Plomberie",
      "Chauffage central"
    ])
    fc.assert(
      fc.property(fc.array(fc.string()), (items) => {
        const out = cleanList(items)
        expect(out.every((i) => i === i.trim() && i !== "")).toBe(true)
        expect(new Set(out.map((i) => i.toLocaleLowerCase())).size).toBe(out.length)
        expect(cleanList(out)).toEqual(out)
      })
    )
  })

  it("limits: bio 500, description 2000, experience 0..50 whole years", () => {
    const context = { role: "CLIENT" as const, now: NOW }
    expect(
      Either.isRight(validateProfilePatch({ bio: "x".repeat(500), description: "y".repeat(2000), experienceYears: 50 }, context))
    ).toBe(true)
    expect(issues(validateProfilePatch({ bio: "x".repeat(501) }, context))).toEqual([["bio", "profile.bioTooLong"]])
    expect(issues(validateProfilePatch({ description: "y".repeat(2001) }, context))).toEqual([
      ["description", "profile.descriptionTooLong"]
    ])
    for (const years of [-1, 51, 1.5, "x", Number.NaN]) {
      expect(issues(validateProfilePatch({ experienceYears: years }, context))).toEqual([["experienceYears", "profile.experienceRange"]])
    }
    expect(Either.getOrThrow(validateProfilePatch({ experienceYears: " 7 " }, context)).profile.experienceYears).toBe(7)
    expect(issues(validateProfilePatch({ firstName: "  " }, context))).toEqual([["firstName", "validation.required"]])
    expect(Either.getOrThrow(validateProfilePatch({}, context))).toEqual({ account: {}, profile: {} })
  })

  it("age: whole years in UTC; a provider must be 18 and keep a date of birth", () => {
    expect(ageOn("2007-06-15", NOW)).toBe(18)
    expect(ageOn("2007-06-16", NOW)).toBe(17)
    expect(ageOn("2004-02-29", new Date("2022-02-28T00:00:00Z"))).toBe(17)
    expect(ageOn("2004-02-29", new Date("2022-03-01T00:00:00Z"))).toBe(18)
    // The date field's max: the latest birth date of age, whatever the day (29 February included).
    fc.assert(
      fc.property(fc.date({ min: new Date("1950-01-01T00:00:00Z"), max: new Date("2100-12-31T23:59:59Z"), noInvalidDate: true }), (now) => {
        const latest = latestProviderBirthDate(now)
        const dayAfter = new Date(Date.parse(`${latest}T00:00:00Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10)
        return ageOn(latest, now) === 18 && ageOn(dayAfter, now) === 17
      })
    )
    expect(latestProviderBirthDate(new Date("2026-02-28T10:00:00Z"))).toBe("2008-02-28")
    const provider = { role: "PROVIDER" as const, now: NOW }
    expect(Either.isRight(validateProfilePatch({ dateOfBirth: "2007-06-15" }, provider))).toBe(true)
    expect(issues(validateProfilePatch({ dateOfBirth: "2007-06-16" }, provider))).toEqual([["dateOfBirth", "profile.minimumAge"]])
    expect(issues(validateProfilePatch({ dateOfBirth: null }, provider))).toEqual([["dateOfBirth", "profile.minimumAge"]])
    for (const bad of ["2025-06-16", "1899-12-31", "2001-02-29", "15/06/2000", "2000-13-01"]) {
      expect(issues(validateProfilePatch({ dateOfBirth: bad }, { role: "CLIENT", now: NOW }))).toEqual([
        ["dateOfBirth", "profile.dateOfBirthInvalid"]
      ])
    }
  })
})

describe("who may see a profile", () => {
  const owner = (visibility: ProfileVisibility, isActive = true) => ({ id: "owner", isActive, visibility })
  const visitor = { id: "someone", role: "CLIENT" as const }
  const admin = { id: "admin", role: "ADMIN" as const }
  it("follows the visibility table", () => {
    const can = (
      visibility: ProfileVisibility,
      viewer: { id: string; role: "CLIENT" | "ADMIN" | "PROVIDER" } | undefined,
      connected = false
    ) => Either.isRight(profileAccess(owner(visibility), viewer, connected))
    expect([can("PUBLIC", undefined), can("PUBLIC", visitor)]).toEqual([true, true])
    expect([can("FRIENDS_ONLY", undefined, true), can("FRIENDS_ONLY", visitor), can("FRIENDS_ONLY", visitor, true)]).toEqual([
      false,
      false,
      true
    ])
    expect([can("PRIVATE", visitor, true), can("PRIVATE", admin), can("PRIVATE", { id: "owner", role: "CLIENT" })]).toEqual([
      false,
      true,
      true
    ])
    const denied = profileAccess(owner("PRIVATE"), visitor, false)
    expect(Either.isLeft(denied) && denied.left.code).toBe("PROFILE_NOT_ACCESSIBLE")
    const gone = profileAccess(owner("PUBLIC", false), visitor, false)
    expect(Either.isLeft(gone) && gone.left.code).toBe("PROFILE_NOT_FOUND")
    expect(Either.isRight(profileAccess(owner("PUBLIC", false), admin, false))).toBe(true)
  })
})

describe("badges by rule", () => {
  const base = { role: "CLIENT" as const, isEmailVerified: false, profile: emptyProfile, statistics: noStatistics }
  const ids = (input: Parameters<typeof badgesOf>[0]) => badgesOf(input).map((b) => b.id)
  it("awards each badge exactly at its threshold", () => {
    expect(ids(base)).toEqual([])
    expect(ids({ ...base, isEmailVerified: true })).toEqual(["EMAIL_VERIFIED"])
    expect(ids({ ...base, role: "PROVIDER", isEmailVerified: true })).toEqual(["EMAIL_VERIFIED", "VERIFIED_PROVIDER"])
    expect(ids({ ...base, profile: { ...emptyProfile, experienceYears: 4 } })).toEqual([])
    expect(ids({ ...base, profile: { ...emptyProfile, experienceYears: 5 } })).toEqual(["EXPERIENCED"])
    expect(ids({ ...base, statistics: { ...noStatistics, completedBookings: 9 } })).toEqual([])
    expect(ids({ ...base, statistics: { ...noStatistics, completedBookings: 10 } })).toEqual(["TEN_BOOKINGS"])
    expect(ids({ ...base, statistics: { ...noStatistics, averageRating: 4.5, totalReviews: 4 } })).toEqual([])
    expect(ids({ ...base, statistics: { ...noStatistics, averageRating: 4.49, totalReviews: 50 } })).toEqual([])
    expect(ids({ ...base, statistics: { ...noStatistics, averageRating: 4.5, totalReviews: 5 } })).toEqual(["TOP_RATED"])
    const complete = {
      ...emptyProfile,
      bio: "b",
      specialities: ["s"],
      languages: ["fr"],
      avatar: { key: "avatars/x", contentType: "image/png", size: 1, updatedAt: NOW }
    }
    expect(ids({ ...base, profile: complete })).toEqual(["PROFILE_COMPLETE"])
    expect(ids({ ...base, profile: { ...complete, avatar: null } })).toEqual([])
  })
})

describe("uploads: sniffing, checks, re-encoding, names", () => {
  it("reads the type from the magic bytes only", async () => {
    expect(sniff(await png())).toBe("image/png")
    expect(sniff(await jpegWithExif())).toBe("image/jpeg")
    expect(sniff(await webp())).toBe("image/webp")
    expect(sniff(pdf())).toBe("application/pdf")
    for (const bytes of [
      new Uint8Array(0),
      Buffer.from("GIF89a"),
      Buffer.from("RIFF0000WAVE"),
      Buffer.from("%PDF"),
      Buffer.from("<svg/>")
    ]) {
      expect(sniff(bytes)).toBeUndefined()
    }
  })

  it("checkFile: empty 422, > 5 MB 413, other types 415", async () => {
    const rules = { allowed: ImageTypes, unsupported: "upload.unsupportedImage" } as const
    const codeOf = (r: Either.Either<unknown, { code: string }>) => (Either.isLeft(r) ? r.left.code : "OK")
    expect(codeOf(checkFile("avatar", { name: "a", bytes: new Uint8Array(0) }, rules))).toBe("VALIDATION_ERROR")
    const big = new Uint8Array(5 * 1024 * 1024 + 1)
    big.set(await png())
    expect(codeOf(checkFile("avatar", { name: "a", bytes: big }, rules))).toBe("FILE_TOO_LARGE")
    expect(codeOf(checkFile("avatar", { name: "a", bytes: big.subarray(0, 5 * 1024 * 1024) }, rules))).toBe("OK")
    expect(codeOf(checkFile("avatar", { name: "a.png", bytes: pdf() }, rules))).toBe("UNSUPPORTED_FILE_TYPE")
  })

  it("re-encoding drops EXIF and text chunks, keeps the picture upright and its format; garbage is 415", async () => {
    const exif = await Effect.runPromise(normalizeFile("f", "image/jpeg", await jpegWithExif(), "upload.unsupportedImage"))
    expect((await sharp(exif).metadata()).exif).toBeUndefined()
    expect(Buffer.from(exif).includes("SECRET-EXIF-MARKER")).toBe(false)
    const text = await Effect.runPromise(normalizeFile("f", "image/png", await pngWithText(), "upload.unsupportedImage"))
    expect(Buffer.from(text).includes("SECRET-PNG-MARKER")).toBe(false)
    expect((await sharp(text).metadata()).format).toBe("png")
    const rotated = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#000" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer()
    const upright = await Effect.runPromise(normalizeFile("f", "image/jpeg", new Uint8Array(rotated), "upload.unsupportedImage"))
    expect([(await sharp(upright).metadata()).width, (await sharp(upright).metadata()).height]).toEqual([10, 20])
    const samePdf = pdf()
    expect(await Effect.runPromise(normalizeFile("f", "application/pdf", samePdf, "upload.unsupportedDocument"))).toBe(samePdf)
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
    const failure = await Effect.runPromise(Effect.flip(normalizeFile("f", "image/png", broken, "upload.unsupportedImage")))
    expect(failure.code).toBe("UNSUPPORTED_FILE_TYPE")
  })

  it("user file names are display text: no folders, no control characters; headers stay safe", () => {
    expect(displayName("../../etc/passwd")).toBe("passwd")
    expect(displayName("..\\..\\win.ini")).toBe("win.ini")
    expect(displayName("a\u0000b\u001f.pdf")).toBe("ab.pdf")
    expect(displayName("...hidden")).toBe("hidden")
    expect(displayName("   ", "document.pdf")).toBe("document.pdf")
    expect(displayName("x".repeat(300)).length).toBe(150)
    const header = contentDisposition("attachment", 'fa"cture; été.pdf')
    expect(header).toBe(`attachment; filename="fa_cture_ _t_.pdf"; filename*=UTF-8''fa%22cture%3B%20%C3%A9t%C3%A9.pdf`)
    expect(header).not.toMatch(/[\r\n]/)
  })
})

describe("storage adapters (same contract)", () => {
  const root = scratchDir("storage")
  for (const [name, make] of [
    ["local disk", () => Effect.succeed(localDiskStorage(root))],
    ["memory", () => Effect.provide(Storage, InMemoryStorage)]
  ] as const) {
    it(`${name}: put, get, remove, keys; only generated keys are accepted`, async () => {
      const storage = await Effect.runPromise(make())
      const key = newStorageKey("avatars")
      expect(isStorageKey(key)).toBe(true)
      await Effect.runPromise(storage.put(key, new Uint8Array([1, 2, 3])))
      expect(Option.getOrThrow(await Effect.runPromise(storage.get(key)))).toEqual(new Uint8Array([1, 2, 3]))
      expect(await Effect.runPromise(storage.keys())).toContain(key)
      await Effect.runPromise(storage.remove(key))
      await Effect.runPromise(storage.remove(key))
      expect(Option.isNone(await Effect.runPromise(storage.get(key)))).toBe(true)
      expect(await Effect.runPromise(storage.keys())).not.toContain(key)
      for (const bad of [
        "../x",
        "avatars/../../etc/passwd",
        "avatars/abc",
        "other/00000000-0000-0000-0000-000000000000",
        "avatars/00000000-0000-0000-0000-000000000000/.."
      ]) {
        expect(isStorageKey(bad)).toBe(false)
        const exit = await Effect.runPromiseExit(storage.put(bad, new Uint8Array([1])))
        expect(exit._tag).toBe("Failure")
      }
    })
  }
  it("local disk writes under DATA_DIR/uploads/<area>/<uuid> with no temporary file left", async () => {
    const storage = localDiskStorage(root)
    const key = newStorageKey("applications")
    await Effect.runPromise(storage.put(key, new Uint8Array([9])))
    expect(fs.readdirSync(path.join(root, "applications"))).toEqual([key.split("/")[1]])
  })
})
