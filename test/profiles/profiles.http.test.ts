import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { freshUser, loginToken } from "../support/accounts"
import { type CallOptions, expectError } from "../support/http"
import { httpWorld } from "../support/world"
import { fileOf, png, sendForm } from "./support"

const { server, api, sql } = httpWorld()
const del = (path: string, options?: CallOptions) => api.call("DELETE", path, options)

const PRIVATE_FIELDS = ["email", "phoneNumber", "address", "postalCode", "dateOfBirth", "stripeAccountId", "payments", "preferredLanguage"]

describe("GET /api/users/me", () => {
  it("answers every field of the account and its profile, with computed statistics and badges", async () => {
    const { user, token } = await freshUser(server, api)
    const reply = await api.get("/api/users/me", { token })
    expect(reply.status).toBe(200)
    expect(reply.body.data.user).toMatchObject({
      id: user.id,
      email: user.email,
      role: "CLIENT",
      isEmailVerified: true,
      preferredLanguage: "fr",
      active: true,
      avatarUrl: null,
      identityPhotoUrl: null,
      profilePhotoUrl: null,
      bio: "",
      description: "",
      specialities: [],
      experienceYears: null,
      languages: [],
      certifications: [],
      socialLinks: {},
      availability: "",
      profileVisibility: "PUBLIC",
      location: "",
      address: "",
      city: "",
      postalCode: "",
      country: "",
      hourlyRate: null,
      currency: "EUR",
      userCurrency: { code: "EUR" },
      dateOfBirth: null,
      servicesCount: 0,
      averageRating: 0,
      totalReviews: 0,
      totalBookings: 0,
      completedBookings: 0,
      completionRate: 0,
      responseTime: null,
      stripeAccountId: null,
      payments: null
    })
    expect(reply.body.data.user.badges.map((b: any) => b.badge.id)).toEqual(["EMAIL_VERIFIED"])
    expect(reply.body.data.user.badges[0].badge).toEqual({
      id: "EMAIL_VERIFIED",
      name: fr["badge.EMAIL_VERIFIED.name"],
      description: fr["badge.EMAIL_VERIFIED.description"],
      icon: "mail-check",
      color: "#2563eb"
    })
    expectError(await api.get("/api/users/me"), 401, "UNAUTHENTICATED")
  })

  it("a provider sees the activate-payments state of its payout account", async () => {
    const fresh = await freshUser(server, api, "PROVIDER")
    const none = await api.get("/api/users/me", { token: fresh.token })
    expect(none.body.data.user.payments).toEqual({
      hasAccount: false,
      accountId: null,
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      setupPath: "/provider/payments/setup"
    })
    // The seeded providers have a completed sandbox account.
    const marie = await api.get("/api/users/me", { token: await loginToken(api, "marie.dubois@marketplace.local", "Provider1234!") })
    expect(marie.body.data.user.payments).toMatchObject({
      hasAccount: true,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true
    })
    expect(marie.body.data.user.stripeAccountId).toBe(marie.body.data.user.payments.accountId)
    expect(marie.body.data.user.badges.map((b: any) => b.badge.id)).toContain("VERIFIED_PROVIDER")
  })
})

describe("PATCH /api/users/me", () => {
  it("changes only the fields sent, trimmed; lists cleaned of blanks and duplicates", async () => {
    const { token } = await freshUser(server, api)
    const reply = await api.patch(
      "/api/users/me",
      {
        firstName: "  Amélie ",
        bio: "  Plombière passionnée.  ",
        description: "Dix ans de métier.",
        specialities: [" Plomberie ", "plomberie", "", "  ", "Chauffage"],
        languages: ["Français", "English", "français"],
        certifications: ["CAP Plombier"],
        experienceYears: "12",
        socialLinks: { website: "https://amelie.example.com", linkedin: "" },
        availability: "Lun-Ven 8h-18h",
        location: "Montréal",
        address: "123 rue Principale",
        city: "Montréal",
        postalCode: "H2X 1Y4",
        country: "Canada",
        hourlyRate: 55.5,
        currency: "cad",
        dateOfBirth: "1990-04-12",
        profileVisibility: "friends_only"
      },
      { token }
    )
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.message).toBe(fr["profile.updated"])
    expect(reply.body.data.user).toMatchObject({
      firstName: "Amélie",
      lastName: "Lévesque",
      bio: "Plombière passionnée.",
      specialities: ["Plomberie", "Chauffage"],
      languages: ["Français", "English"],
      certifications: ["CAP Plombier"],
      experienceYears: 12,
      socialLinks: { website: "https://amelie.example.com" },
      hourlyRate: 55.5,
      currency: "CAD",
      dateOfBirth: "1990-04-12",
      profileVisibility: "FRIENDS_ONLY",
      postalCode: "H2X 1Y4"
    })
    expect(reply.body.data.user.badges.map((b: any) => b.badge.id)).toEqual(["EMAIL_VERIFIED", "EXPERIENCED"])
    // Later reads show it; an empty patch changes nothing; null clears a clearable field.
    const again = await api.patch("/api/users/me", {}, { token })
    expect(again.body.data.user.bio).toBe("Plombière passionnée.")
    const cleared = await api.patch("/api/users/me", { bio: null, specialities: null, experienceYears: null, hourlyRate: "" }, { token })
    expect(cleared.body.data.user).toMatchObject({
      bio: "",
      specialities: [],
      experienceYears: null,
      hourlyRate: null,
      description: "Dix ans de métier."
    })
    expect((await api.get("/api/auth/me", { token })).body.data.user.firstName).toBe("Amélie")
  })

  it("422 per field for every limit, in the request's language; nothing is changed", async () => {
    const { token } = await freshUser(server, api)
    const reply = await api.patch(
      "/api/users/me",
      {
        firstName: "   ",
        lastName: "",
        bio: "x".repeat(501),
        description: "y".repeat(2001),
        experienceYears: 51,
        hourlyRate: -3,
        currency: "BTC",
        profileVisibility: "SECRET",
        socialLinks: { myspace: "https://x.y", website: "javascript:alert(1)" },
        dateOfBirth: "2100-01-01",
        phoneNumber: "12ab",
        preferredLanguage: "de",
        specialities: Array.from({ length: 31 }, (_, i) => `s${i}`)
      },
      { token, language: "en" }
    )
    expect(reply.status).toBe(422)
    const byField = Object.fromEntries(reply.body.details.map((d: any) => [d.field, d.message]))
    expect(byField).toMatchObject({
      firstName: en["validation.required"],
      lastName: en["validation.required"],
      bio: en["profile.bioTooLong"],
      description: en["profile.descriptionTooLong"],
      experienceYears: en["profile.experienceRange"],
      hourlyRate: en["profile.hourlyRateInvalid"],
      currency: en["profile.currencyInvalid"],
      profileVisibility: en["profile.visibilityInvalid"],
      "socialLinks.myspace": en["profile.socialNetworkUnknown"],
      "socialLinks.website": en["profile.urlInvalid"],
      dateOfBirth: en["profile.dateOfBirthInvalid"],
      phoneNumber: en["validation.phone"],
      preferredLanguage: en["validation.language"],
      specialities: en["profile.listTooLong"]
    })
    for (const [field, value] of [
      ["experienceYears", -1],
      ["experienceYears", 2.5],
      ["experienceYears", "abc"],
      ["hourlyRate", 10.123]
    ] as const) {
      const one = await api.patch("/api/users/me", { [field]: value }, { token })
      expect(one.status, `${field}=${value}`).toBe(422)
    }
    // Bio exactly 500 and experience 0 and 50 pass.
    expect((await api.patch("/api/users/me", { bio: "b".repeat(500), experienceYears: 0 }, { token })).status).toBe(200)
    expect((await api.patch("/api/users/me", { experienceYears: 50, description: "d".repeat(2000) }, { token })).status).toBe(200)
    const me = (await api.get("/api/users/me", { token })).body.data.user
    expect([me.firstName, me.currency, me.profileVisibility]).toEqual(["Zoé", "EUR", "PUBLIC"])
  })

  it("a provider must be at least 18: a younger date of birth or clearing it is refused", async () => {
    const provider = await freshUser(server, api, "PROVIDER")
    const today = new Date()
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`
    const young = await api.patch("/api/users/me", { dateOfBirth: seventeen }, { token: provider.token })
    expect(young.status).toBe(422)
    expect(young.body.details).toEqual([{ field: "dateOfBirth", message: fr["profile.minimumAge"] }])
    expect((await api.patch("/api/users/me", { dateOfBirth: "1985-06-30" }, { token: provider.token })).status).toBe(200)
    expect((await api.patch("/api/users/me", { dateOfBirth: null }, { token: provider.token })).status).toBe(422)
    // A client may record any past date (the age matters when becoming a provider).
    const client = await freshUser(server, api)
    expect((await api.patch("/api/users/me", { dateOfBirth: seventeen }, { token: client.token })).status).toBe(200)
    expect((await api.patch("/api/users/me", { dateOfBirth: "2001-02-29" }, { token: client.token })).status).toBe(422)
  })

  it("email and role cannot be changed here (unknown fields: 400 naming them, nothing changed); wrong JSON types are 400", async () => {
    const { user, token } = await freshUser(server, api)
    const reply = await api.patch("/api/users/me", { email: "new@example.com", role: "ADMIN", bio: "ok" }, { token })
    expectError(reply, 400, "MALFORMED_REQUEST")
    expect(reply.body.details.map((d: { field: string }) => d.field)).toEqual(["email", "role"])
    const me = await api.get("/api/users/me", { token })
    expect([me.body.data.user.email, me.body.data.user.role]).toEqual([user.email, "CLIENT"])
    expect(me.body.data.user.bio).not.toBe("ok")
    for (const body of [
      { bio: 1 },
      { specialities: "Plomberie" },
      { specialities: [1] },
      { socialLinks: ["x"] },
      { experienceYears: { $gt: 1 } },
      { bio: "a\u0000b" }
    ]) {
      expectError(await api.patch("/api/users/me", body, { token }), 400, "MALFORMED_REQUEST")
    }
  })
})

describe("GET /api/users/public/{id}", () => {
  it("never exposes the email, phone, address, birth date or payment ids; shows statistics and badges", async () => {
    const { user, token } = await freshUser(server, api, "PROVIDER")
    await api.patch(
      "/api/users/me",
      { address: "1 rue Secrète", postalCode: "H0H 0H0", city: "Laval", dateOfBirth: "1980-01-01", bio: "Bio" },
      { token }
    )
    const reply = await api.get(`/api/users/public/${user.id}`)
    expect(reply.status).toBe(200)
    const view = reply.body.data.user
    for (const field of PRIVATE_FIELDS) expect(view, field).not.toHaveProperty(field)
    expect(reply.text).not.toContain(user.email)
    expect(reply.text).not.toContain("5145550177")
    expect(reply.text).not.toContain("rue Secrète")
    expect(view).toMatchObject({
      id: user.id,
      firstName: "Zoé",
      role: "PROVIDER",
      city: "Laval",
      bio: "Bio",
      isFavorite: false,
      isOwner: false,
      servicesCount: 0
    })
    const marie = await loginToken(api, "marie.dubois@marketplace.local", "Provider1234!")
    const marieId = (await api.get("/api/users/me", { token: marie })).body.data.user.id
    const marieView = await api.get(`/api/users/public/${marieId}`)
    expect(marieView.text).not.toMatch(/acct_/)
    expect(marieView.body.data.user.servicesCount).toBeGreaterThan(0) // the seeded demo services
    expect((await api.get(`/api/users/public/${user.id}`, { token })).body.data.user.isOwner).toBe(true)
  })

  it("statistics come from the data: services, their reviews, and (once they exist) bookings", async () => {
    const { user } = await freshUser(server, api, "PROVIDER")
    const insert = (rating: number, reviews: number, status = "ACTIVE") =>
      sql<{ id: string }>(
        `INSERT INTO services (user_id, category_id, title, description, price_minor, duration_minutes, rating, review_count, status)
         VALUES ($1, 1, 'Dépannage', 'Réparations à domicile', 5000, 60, $2, $3, $4) RETURNING id`,
        [user.id, rating, reviews, status]
      )
    const [first] = await insert(5, 4)
    await insert(4, 4)
    await insert(1, 0, "INACTIVE")
    const stats = (await api.get(`/api/users/public/${user.id}`)).body.data.user
    expect(stats).toMatchObject({ servicesCount: 2, totalReviews: 8, averageRating: 4.5, totalBookings: 0, completionRate: 0 })
    expect(stats.badges.map((b: any) => b.badge.id)).toContain("TOP_RATED")

    // A bookings table (from the bookings issue) is read as soon as it exists.
    const exists = (await sql<{ t: string | null }>(`SELECT to_regclass('bookings')::text AS t`))[0]!.t
    if (exists === null) {
      await sql(
        `CREATE TABLE bookings (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), client_id uuid NOT NULL, service_id uuid NOT NULL, status text NOT NULL)`
      )
      const client = await freshUser(server, api)
      for (let i = 0; i < 12; i++) {
        await sql(`INSERT INTO bookings (client_id, service_id, status) VALUES ($1, $2, $3)`, [
          client.user.id,
          first!.id,
          i < 10 ? "COMPLETED" : "CANCELLED"
        ])
      }
      const withBookings = (await api.get(`/api/users/public/${user.id}`)).body.data.user
      expect(withBookings).toMatchObject({ totalBookings: 12, completedBookings: 10, completionRate: 0.833 })
      expect(withBookings.badges.map((b: any) => b.badge.id)).toContain("TEN_BOOKINGS")
      // ...and a booking between two users opens FRIENDS_ONLY profiles to each other.
      await sql(`UPDATE users SET profile_visibility = 'FRIENDS_ONLY' WHERE id = $1`, [user.id])
      expect((await api.get(`/api/users/public/${user.id}`, { token: client.token })).status).toBe(200)
      const stranger = await freshUser(server, api)
      expectError(await api.get(`/api/users/public/${user.id}`, { token: stranger.token }), 403, "PROFILE_NOT_ACCESSIBLE")
      await sql(`DROP TABLE bookings`)
    }
  })

  it("visibility: PUBLIC to everyone, FRIENDS_ONLY and PRIVATE to the owner and admins; otherwise 403", async () => {
    const owner = await freshUser(server, api)
    const other = await freshUser(server, api)
    const admin = await freshUser(server, api, "ADMIN")
    const path = `/api/users/public/${owner.user.id}`
    expect((await api.get(path)).status).toBe(200)
    expect((await api.get(path, { token: other.token })).status).toBe(200)
    for (const visibility of ["FRIENDS_ONLY", "PRIVATE"]) {
      await api.patch("/api/users/me", { profileVisibility: visibility }, { token: owner.token })
      const anonymous = await api.get(path)
      expectError(anonymous, 403, "PROFILE_NOT_ACCESSIBLE")
      expect(anonymous.body.message).toBe(fr["profile.notAccessible"])
      expectError(await api.get(path, { token: other.token, language: "en" }), 403, "PROFILE_NOT_ACCESSIBLE")
      expect((await api.get(path, { token: owner.token })).status).toBe(200)
      expect((await api.get(path, { token: admin.token })).status).toBe(200)
      expectError(await api.get(`/api/users/${owner.user.id}/badges`, { token: other.token }), 403, "PROFILE_NOT_ACCESSIBLE")
      // A bad token on a public read counts as anonymous.
      expectError(await api.get(path, { token: "not-a-token" }), 403, "PROFILE_NOT_ACCESSIBLE")
    }
  })

  it("404 PROFILE_NOT_FOUND for unknown, malformed and deactivated accounts (admins still see deactivated ones)", async () => {
    const gone = await freshUser(server, api)
    const admin = await freshUser(server, api, "ADMIN")
    await sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.user.id])
    for (const id of ["00000000-0000-4000-8000-000000000000", "abc", gone.user.id]) {
      const reply = await api.get(`/api/users/public/${id}`)
      expectError(reply, 404, "PROFILE_NOT_FOUND")
      expect(reply.body.message).toBe(fr["profile.notFound"])
    }
    expect((await api.get(`/api/users/public/${gone.user.id}`, { token: admin.token })).status).toBe(200)
  })
})

describe("GET /api/users/{id}/badges", () => {
  it("answers the badges earned by rule, in the request's language", async () => {
    const { user, token } = await freshUser(server, api, "PROVIDER")
    await api.patch("/api/users/me", { bio: "Bio", specialities: ["Jardinage"], languages: ["Français"], experienceYears: 5 }, { token })
    const before = await api.get(`/api/users/${user.id}/badges`, { language: "en" })
    expect(before.body.data.badges.map((b: any) => b.badge.id)).toEqual(["EMAIL_VERIFIED", "VERIFIED_PROVIDER", "EXPERIENCED"])
    expect(before.body.data.badges[2].badge.name).toBe(en["badge.EXPERIENCED.name"])
    await sendForm(
      server,
      "POST",
      "/api/uploads/avatar",
      (() => {
        const form = new FormData()
        return form
      })(),
      { token }
    )
    const form = new FormData()
    form.append("avatar", fileOf(await png(), "me.png"))
    await sendForm(server, "POST", "/api/uploads/avatar", form, { token })
    const after = await api.get(`/api/users/${user.id}/badges`)
    expect(after.body.data.badges.map((b: any) => b.badge.id)).toEqual([
      "EMAIL_VERIFIED",
      "VERIFIED_PROVIDER",
      "PROFILE_COMPLETE",
      "EXPERIENCED"
    ])
    expectError(await api.get(`/api/users/nope/badges`), 404, "PROFILE_NOT_FOUND")
  })
})

describe("favorites", () => {
  it("POST adds once (unique per pair), GET lists newest first with pagination, DELETE removes; all persisted", async () => {
    const me = await freshUser(server, api)
    const a = await freshUser(server, api, "PROVIDER", { firstName: "Alice" })
    const b = await freshUser(server, api, "PROVIDER", { firstName: "Bruno" })
    const first = await api.post("/api/users/favorites", { favoritedId: a.user.id }, { token: me.token })
    expect(first.status).toBe(201)
    expect(first.body.data.favorite).toEqual({ favoritedId: a.user.id, created: true })
    expect(first.body.message).toBe(fr["favorites.added"])
    const repeat = await api.post("/api/users/favorites", { favoritedId: a.user.id }, { token: me.token })
    expect(repeat.body.data.favorite.created).toBe(false)
    await api.post("/api/users/favorites", { favoritedId: b.user.id }, { token: me.token })
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM favorites WHERE user_id = $1`, [me.user.id]))[0]!.n).toBe(2)

    const list = await api.get("/api/users/me/favorites", { token: me.token })
    expect(list.body.data.pagination).toEqual({ total: 2, page: 1, limit: 20, pages: 1 })
    expect(list.body.data.favorites.map((f: any) => f.user.firstName)).toEqual(["Bruno", "Alice"])
    expect(list.body.data.favorites[0].user).not.toHaveProperty("email")
    const page2 = await api.get("/api/users/me/favorites?page=2&limit=1", { token: me.token })
    expect(page2.body.data.pagination).toEqual({ total: 2, page: 2, limit: 1, pages: 2 })
    expect(page2.body.data.favorites.map((f: any) => f.favoritedId)).toEqual([a.user.id])

    // The public profile tells the viewer it is a favorite.
    expect((await api.get(`/api/users/public/${a.user.id}`, { token: me.token })).body.data.user.isFavorite).toBe(true)
    const removed = await del(`/api/users/favorites/${a.user.id}`, { token: me.token })
    expect(removed.status).toBe(200)
    expectError(await del(`/api/users/favorites/${a.user.id}`, { token: me.token }), 404, "FAVORITE_NOT_FOUND")
    expect((await api.get(`/api/users/public/${a.user.id}`, { token: me.token })).body.data.user.isFavorite).toBe(false)
    expect((await api.get("/api/users/me/favorites", { token: me.token })).body.data.pagination.total).toBe(1)
  })

  it("refuses yourself (422), unknown profiles (404), hidden profiles (403), a missing id (422), anonymous callers (401)", async () => {
    const me = await freshUser(server, api)
    const hidden = await freshUser(server, api)
    await api.patch("/api/users/me", { profileVisibility: "PRIVATE" }, { token: hidden.token })
    const self = await api.post("/api/users/favorites", { favoritedId: me.user.id }, { token: me.token })
    expectError(self, 422, "VALIDATION_ERROR")
    expect(self.body.details).toEqual([{ field: "favoritedId", message: fr["favorites.self"] }])
    expectError(
      await api.post("/api/users/favorites", { favoritedId: "00000000-0000-4000-8000-000000000000" }, { token: me.token }),
      404,
      "PROFILE_NOT_FOUND"
    )
    expectError(await api.post("/api/users/favorites", { favoritedId: "x" }, { token: me.token }), 404, "PROFILE_NOT_FOUND")
    expectError(await api.post("/api/users/favorites", { favoritedId: hidden.user.id }, { token: me.token }), 403, "PROFILE_NOT_ACCESSIBLE")
    expectError(await api.post("/api/users/favorites", {}, { token: me.token }), 422, "VALIDATION_ERROR")
    expectError(await api.post("/api/users/favorites", { favoritedId: hidden.user.id }), 401, "UNAUTHENTICATED")
    expectError(await api.get("/api/users/me/favorites"), 401, "UNAUTHENTICATED")
    expectError(await del(`/api/users/favorites/${hidden.user.id}`), 401, "UNAUTHENTICATED")
    // The database refuses a self-favorite too.
    await expect(sql(`INSERT INTO favorites (user_id, favorited_id) VALUES ($1, $1)`, [me.user.id])).rejects.toThrow()
  })

  it("a favorite whose profile became private stays listed without its details", async () => {
    const me = await freshUser(server, api)
    const other = await freshUser(server, api)
    await api.post("/api/users/favorites", { favoritedId: other.user.id }, { token: me.token })
    await api.patch("/api/users/me", { profileVisibility: "PRIVATE" }, { token: other.token })
    const list = await api.get("/api/users/me/favorites", { token: me.token })
    expect(list.body.data.favorites).toEqual([{ favoritedId: other.user.id, createdAt: expect.any(String), accessible: false, user: null }])
  })
})
