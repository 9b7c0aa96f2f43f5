import { Cause, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Mailer } from "../../src/modules/notifications"
import { ProviderApplications, ProviderApplicationsLive } from "../../src/modules/onboarding"
import { AppConfigOf } from "../../src/platform/config"
import { en, fr } from "../../src/platform/messages"
import { expectError, mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { freshUser } from "../support/accounts"
import { getBinary, storedKeys, uploadedFiles, uploadsDirOf } from "../profiles/support"
import { makeTestLayer } from "../support/layers"
import { applicationForm, resubmit, rowsOf, submit } from "./support"
import { DAY } from "../support/durations"

const { server, api, admin, sql } = httpWorld({ admin: true })
const patch = (path: string, json: unknown, token?: string, language?: string) =>
  api.patch(path, json, { ...(token ? { token } : {}), ...(language ? { language } : {}) })
const applicant = (language: "fr" | "en" = "fr", firstName = "Nadia") =>
  freshUser(server, api, "CLIENT", { preferredLanguage: language, firstName })

/** Moves a rejected application's cooldown into the past (time passing). */
const cooldownOver = (applicationId: string) =>
  sql(`UPDATE provider_applications SET next_submission_date = now() - interval '1 minute' WHERE id = $1`, [applicationId])

describe("GET /api/provider-applications/my-application", () => {
  it("answers null before any application, the caller's own application afterwards; 401 anonymous", async () => {
    const { token } = await applicant()
    const none = await api.get("/api/provider-applications/my-application", { token })
    expect(none.status).toBe(200)
    expect(none.body.data).toEqual({ application: null })
    expectError(await api.get("/api/provider-applications/my-application"), 401, "UNAUTHENTICATED")
  })
})

describe("POST /api/provider-applications/submit", () => {
  it("201 with the four documents stored under generated keys; the applicant stays CLIENT until approval", async () => {
    const { user, token } = await applicant()
    const reply = await submit(server, token, await applicationForm({ fields: { identityDocumentType: "PASSPORT" } }))
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.message).toBe(fr["onboarding.submitted"])
    const application = reply.body.data.application
    expect(application).toMatchObject({
      status: "PENDING",
      skills: "Plomberie, chauffage, dépannage",
      dateOfBirth: "1990-05-05",
      rejectionReason: null,
      rejectionCount: 0,
      maxAttempts: 3,
      nextSubmissionDate: null,
      resubmissionState: "NOT_REJECTED",
      canResubmit: false,
      isFinallyRefused: false,
      daysRemaining: 0,
      documentCount: 4
    })
    expect(application.documents.map((d: any) => [d.slot, d.type, d.contentType, d.fileName, d.isVerified])).toEqual([
      ["identityDocument", "PASSPORT", "application/pdf", "carte d'identité.pdf", null],
      ["addressDocument", "UTILITY_BILL", "image/png", "facture.png", null],
      ["bankDocument", "BANK_RIB", "application/pdf", "rib.pdf", null],
      ["profilePicture", "PROFILE_PICTURE", "image/jpeg", "moi.jpg", null]
    ])
    expect(application.documents[0]).not.toHaveProperty("notes")
    const keys = await sql<{ key: string }>(
      `SELECT storage_key AS key FROM application_documents d JOIN provider_applications a ON a.id = d.application_id WHERE a.user_id = $1`,
      [user.id]
    )
    for (const { key } of keys) expect(key).toMatch(/^applications\/[0-9a-f-]{36}$/)
    expect((await api.get("/api/auth/me", { token })).body.data.user.role).toBe("CLIENT")
    const mine = await api.get("/api/provider-applications/my-application", { token })
    expect(mine.body.data.application.id).toBe(application.id)

    // One open application per user: a second submission and an edit of a pending one are refused.
    expectError(await submit(server, token, await applicationForm()), 409, "APPLICATION_PENDING")
    expectError(await resubmit(server, token, await applicationForm()), 409, "APPLICATION_PENDING")
    expect(await rowsOf(server, user.id)).toEqual({ applications: 1, documents: 4 })
    // ...and the database refuses a second open one whatever the code does.
    await expect(
      sql(`INSERT INTO provider_applications (user_id, skills, experience, motivation) VALUES ($1, 'a', 'b', 'c')`, [user.id])
    ).rejects.toThrow()
  })

  it("422 per field: skills, experience, motivation and all four files required; age at least 18", async () => {
    const { user, token } = await applicant("en")
    const form = await applicationForm({
      fields: { skills: "  ", experience: null, motivation: "" },
      files: { identityDocument: null, addressDocument: null, bankDocument: null, profilePicture: null }
    })
    const reply = await submit(server, token, form, "en")
    expectError(reply, 422, "VALIDATION_ERROR")
    expect(reply.body.details).toEqual([
      { field: "skills", message: en["validation.required"] },
      { field: "experience", message: en["validation.required"] },
      { field: "motivation", message: en["validation.required"] }
    ])
    const noFiles = await submit(server, token, await applicationForm({ files: { bankDocument: null, profilePicture: null } }))
    expectError(noFiles, 422, "VALIDATION_ERROR")
    expect(noFiles.body.details).toEqual([
      { field: "bankDocument", message: fr["upload.required"] },
      { field: "profilePicture", message: fr["upload.required"] }
    ])
    const year = new Date().getUTCFullYear()
    const minor = await submit(server, token, await applicationForm({ fields: { dateOfBirth: `${year - 17}-01-01` } }))
    expect(minor.body.details).toEqual([{ field: "dateOfBirth", message: fr["profile.minimumAge"] }])
    const noBirth = await submit(server, token, await applicationForm({ fields: { dateOfBirth: null } }))
    expect(noBirth.body.details).toEqual([{ field: "dateOfBirth", message: fr["validation.required"] }])
    const badType = await submit(server, token, await applicationForm({ fields: { identityDocumentType: "PROFILE_PICTURE" } }))
    expect(badType.body.details).toEqual([{ field: "identityDocumentType", message: fr["onboarding.documentTypeInvalid"] }])
    expect(await rowsOf(server, user.id)).toEqual({ applications: 0, documents: 0 })
    // A date of birth already on the profile is enough.
    await api.patch("/api/users/me", { dateOfBirth: "1988-02-02" }, { token })
    expect((await submit(server, token, await applicationForm({ fields: { dateOfBirth: null } }))).status).toBe(201)
  })

  it("only clients apply: a provider is told it already is one (409), an admin is refused (403)", async () => {
    const provider = await freshUser(server, api, "PROVIDER")
    expectError(await submit(server, provider.token, await applicationForm()), 409, "ALREADY_PROVIDER")
    expectError(await submit(server, admin.token, await applicationForm()), 403, "CLIENTS_ONLY")
    expectError(await api.post("/api/provider-applications/submit", { skills: "x" }, { token: provider.token }), 409, "ALREADY_PROVIDER")
  })
})

describe("uploads of the application: content decides, refusals leave nothing behind", () => {
  const expectNothingLeft = async (userId: string, before: ReadonlyArray<string>) => {
    expect(await rowsOf(server, userId)).toEqual({ applications: 0, documents: 0 })
    expect(uploadedFiles(server).sort()).toEqual([...before].sort())
  }

  it("a PDF renamed .png as the profile picture (415), a PNG renamed .pdf where only images are refused... and kept as PNG where allowed", async () => {
    const { user, token } = await applicant()
    const before = uploadedFiles(server)
    const { pdf, png } = await import("../profiles/support")
    const { fileOf } = await import("../profiles/support")
    const fakePicture = await submit(
      server,
      token,
      await applicationForm({ files: { profilePicture: fileOf(pdf(), "moi.png", "image/png") } })
    )
    expectError(fakePicture, 415, "UNSUPPORTED_FILE_TYPE")
    expect(fakePicture.body.message).toBe("Photo de profil : format de fichier non supporté (JPG ou PNG uniquement)")
    const english = await submit(server, token, await applicationForm({ files: { profilePicture: fileOf(pdf(), "me.png") } }), "en")
    expect(english.body.message).toBe("Profile picture: unsupported file format (JPG or PNG only)")
    const textAsPdf = await submit(
      server,
      token,
      await applicationForm({ files: { bankDocument: fileOf(Buffer.from("<html>"), "rib.pdf", "application/pdf") } })
    )
    expectError(textAsPdf, 415, "UNSUPPORTED_FILE_TYPE")
    expect(textAsPdf.body.message).toBe("Document bancaire : format de fichier non supporté (JPG, PNG ou PDF uniquement)")
    const webpPicture = await submit(
      server,
      token,
      await applicationForm({ files: { profilePicture: fileOf(await (await import("../profiles/support")).webp(), "moi.webp") } })
    )
    expectError(webpPicture, 415, "UNSUPPORTED_FILE_TYPE")
    await expectNothingLeft(user.id, before)

    // A PNG named .pdf where documents may be images: accepted, recorded as what it is.
    const renamed = await submit(
      server,
      token,
      await applicationForm({ files: { identityDocument: fileOf(await png(), "passeport.pdf", "application/pdf") } })
    )
    expect(renamed.status, renamed.text).toBe(201)
    expect(renamed.body.data.application.documents[0]).toMatchObject({ fileName: "passeport.pdf", contentType: "image/png" })
  })

  it("a 5 MB + 1 byte document is a 413 naming it; an empty one a 422; nothing stored", async () => {
    const { user, token } = await applicant()
    const before = uploadedFiles(server)
    const { bigPngLike, fileOf, FIVE_MB } = await import("../profiles/support")
    const big = await submit(server, token, await applicationForm({ files: { bankDocument: fileOf(bigPngLike(FIVE_MB + 1), "rib.png") } }))
    expectError(big, 413, "FILE_TOO_LARGE")
    expect(big.body.message).toBe("Document bancaire : le fichier est trop volumineux (max 5MB)")
    // Four files of almost 5 MB each pass the body limit (above the server's default 10 MB) and reach the content checks.
    const heavy = await applicationForm({
      files: Object.fromEntries(
        ["identityDocument", "addressDocument", "bankDocument", "profilePicture"].map((slot) => [
          slot,
          fileOf(bigPngLike(FIVE_MB - 10), `${slot}.png`)
        ])
      )
    })
    expectError(await submit(server, token, heavy), 415, "UNSUPPORTED_FILE_TYPE")
    const empty = await submit(server, token, await applicationForm({ files: { addressDocument: fileOf(new Uint8Array(0), "vide.pdf") } }))
    expectError(empty, 422, "VALIDATION_ERROR")
    expect(empty.body.details).toEqual([{ field: "addressDocument", message: fr["upload.empty"] }])
    await expectNothingLeft(user.id, before)
  })

  it("file names with ../ are display text only: files are stored under generated keys", async () => {
    const { user, token } = await applicant()
    const { fileOf, pdf } = await import("../profiles/support")
    const reply = await submit(
      server,
      token,
      await applicationForm({
        files: { identityDocument: fileOf(pdf(), "../../../../etc/passwd.pdf"), bankDocument: fileOf(pdf(), "..\\..\\rib.pdf") }
      })
    )
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.data.application.documents.map((d: any) => d.fileName).slice(0, 3)).toEqual(["passwd.pdf", "facture.png", "rib.pdf"])
    for (const file of uploadedFiles(server))
      expect(file.slice(uploadsDirOf(server).length + 1)).toMatch(/^(avatars|profile-photos|applications|service-photos)\/[0-9a-f-]{36}$/)
    expect(await rowsOf(server, user.id)).toEqual({ applications: 1, documents: 4 })
  })

  it("a write refused by the database removes the files it had written", async () => {
    const { user, token } = await applicant()
    // Two submissions at once: the partial unique index lets one through; the other's files are removed.
    const before = new Set(await storedKeys(server))
    const [a, b] = await Promise.all([submit(server, token, await applicationForm()), submit(server, token, await applicationForm())])
    expect([a.status, b.status].sort()).toEqual([201, 409])
    expect(await rowsOf(server, user.id)).toEqual({ applications: 1, documents: 4 })
    const added = (await storedKeys(server)).filter((k) => !before.has(k))
    expect(added.length).toBe(4)
  })
})

describe("access: documents and other people's applications are for admins only", () => {
  it("clients and providers get 403 on every admin endpoint (their own application included); anonymous 401", async () => {
    const { token } = await applicant()
    const created = await submit(server, token, await applicationForm())
    const id = created.body.data.application.id
    const documentId = created.body.data.application.documents[0].id
    const other = await applicant()
    const provider = await freshUser(server, api, "PROVIDER")
    const calls = [
      ["GET", "/api/admin/applications"],
      ["GET", `/api/admin/applications/${id}`],
      ["PATCH", `/api/provider-applications/${id}/approve`],
      ["PATCH", `/api/provider-applications/${id}/reject`],
      ["PATCH", `/api/admin/documents/${documentId}/verify`],
      ["GET", `/api/admin/documents/${documentId}/file`]
    ] as const
    for (const caller of [token, other.token, provider.token]) {
      for (const [method, path] of calls) {
        const reply =
          method === "GET" && path.endsWith("/file")
            ? await getBinary(server, path, caller)
            : await api.call(method, path, {
                token: caller,
                ...(method === "PATCH" ? { json: path.endsWith("/verify") ? { isVerified: true } : { rejectionReason: "x" } } : {})
              })
        expectError(reply, 403, "FORBIDDEN")
      }
    }
    for (const [method, path] of calls)
      expectError(await api.call(method, path, method === "PATCH" ? { json: {} } : {}), 401, "UNAUTHENTICATED")
    // Another client only ever sees its own (absent) application.
    expect((await api.get("/api/provider-applications/my-application", { token: other.token })).body.data.application).toBeNull()
    expect((await getBinary(server, `/api/admin/documents/${documentId}/file`, admin.token)).status).toBe(200)
  })
})

describe("admin: list, detail, document verification and file", () => {
  it("GET /api/admin/applications searches by name or email, filters by status, paginates", async () => {
    const tag = `zq${Date.now().toString(36)}`
    const people = [await applicant("fr", `${tag}alpha`), await applicant("fr", `${tag}beta`), await applicant("fr", `${tag}gamma`)]
    for (const p of people) await submit(server, p.token, await applicationForm())
    const all = await api.get(`/api/admin/applications?search=${tag}`, { token: admin.token })
    expect(all.status).toBe(200)
    expect(all.body.data.pagination).toEqual({ total: 3, page: 1, limit: 20, pages: 1 })
    const row = all.body.data.applications[0]
    expect(row).toMatchObject({ status: "PENDING", rejectionCount: 0, maxAttempts: 3, documentCount: 4, resubmissionState: "NOT_REJECTED" })
    expect(Object.keys(row.user).sort()).toEqual(["email", "firstName", "id", "lastName", "phoneNumber"])
    // Newest submission first.
    expect(all.body.data.applications.map((a: any) => a.user.firstName)).toEqual([`${tag}gamma`, `${tag}beta`, `${tag}alpha`])
    const byEmail = await api.get(`/api/admin/applications?search=${encodeURIComponent(people[1]!.email.toUpperCase())}`, {
      token: admin.token
    })
    expect(byEmail.body.data.applications.map((a: any) => a.user.firstName)).toEqual([`${tag}beta`])
    const fullName = await api.get(`/api/admin/applications?search=${encodeURIComponent(`${tag}alpha Lévesque`)}`, { token: admin.token })
    expect(fullName.body.data.pagination.total).toBe(1)
    const paged = await api.get(`/api/admin/applications?search=${tag}&page=2&limit=2`, { token: admin.token })
    expect(paged.body.data.pagination).toEqual({ total: 3, page: 2, limit: 2, pages: 2 })
    expect(paged.body.data.applications.length).toBe(1)
    await patch(`/api/provider-applications/${all.body.data.applications[0].id}/reject`, { rejectionReason: "Incomplet" }, admin.token)
    const rejected = await api.get(`/api/admin/applications?search=${tag}&status=rejected`, { token: admin.token })
    expect(rejected.body.data.applications.map((a: any) => [a.user.firstName, a.resubmissionState, a.daysRemaining])).toEqual([
      [`${tag}gamma`, "COOLDOWN", 7]
    ])
    expect((await api.get(`/api/admin/applications?search=${tag}&status=PENDING`, { token: admin.token })).body.data.pagination.total).toBe(
      2
    )
    expect((await api.get(`/api/admin/applications?search=${tag}&status=ALL`, { token: admin.token })).body.data.pagination.total).toBe(3)
    expectError(await api.get("/api/admin/applications?status=DONE", { token: admin.token }), 422, "VALIDATION_ERROR")
    expect((await api.get("/api/admin/applications?search=%25_%5C", { token: admin.token })).body.data.pagination.total).toBe(0)
  })

  it("GET /api/admin/applications/{id}: the application, its applicant and documents with notes; 404 otherwise", async () => {
    const person = await applicant("en")
    const created = await submit(server, person.token, await applicationForm())
    const id = created.body.data.application.id
    const detail = await api.get(`/api/admin/applications/${id}`, { token: admin.token })
    expect(detail.status).toBe(200)
    expect(detail.body.data.application).toMatchObject({
      id,
      status: "PENDING",
      skills: "Plomberie, chauffage, dépannage",
      experience: "Dix ans d'artisanat à Montréal.",
      motivation: "Trouver de nouveaux clients près de chez moi.",
      reviewedBy: null,
      user: { id: person.user.id, email: person.email, role: "CLIENT", preferredLanguage: "en", phoneNumber: "5145550177" }
    })
    expect(detail.body.data.application.documents[0]).toMatchObject({
      notes: null,
      verifiedAt: null,
      fileUrl: `/api/admin/documents/${detail.body.data.application.documents[0].id}/file`
    })
    for (const bad of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      expectError(await api.get(`/api/admin/applications/${bad}`, { token: admin.token }), 404, "APPLICATION_NOT_FOUND")
    }
  })

  it("PATCH /api/admin/documents/{id}/verify: verified, rejected, pending again, with optional notes", async () => {
    const person = await applicant()
    const created = await submit(server, person.token, await applicationForm())
    const [identity] = created.body.data.application.documents
    const path = `/api/admin/documents/${identity.id}/verify`
    const verified = await patch(path, { isVerified: true, notes: "  Conforme  " }, admin.token)
    expect(verified.status).toBe(200)
    expect(verified.body.data.document).toMatchObject({
      id: identity.id,
      isVerified: true,
      notes: "Conforme",
      verifiedBy: expect.any(String)
    })
    const rejected = await patch(path, { isVerified: false }, admin.token)
    expect(rejected.body.data.document).toMatchObject({ isVerified: false, notes: null })
    const pending = await patch(path, { isVerified: null, notes: "À revoir" }, admin.token)
    expect(pending.body.data.document).toMatchObject({ isVerified: null, notes: "À revoir", verifiedAt: null, verifiedBy: null })
    expectError(await patch(path, { notes: "x" }, admin.token), 422, "VALIDATION_ERROR")
    expectError(await patch(path, { isVerified: "yes" }, admin.token), 400, "MALFORMED_REQUEST")
    expectError(await patch(path, { isVerified: true, notes: "n".repeat(1001) }, admin.token), 422, "VALIDATION_ERROR")
    expectError(
      await patch(`/api/admin/documents/00000000-0000-4000-8000-000000000000/verify`, { isVerified: true }, admin.token),
      404,
      "DOCUMENT_NOT_FOUND"
    )
    // The applicant sees the decision, not the notes.
    const mine = (await api.get("/api/provider-applications/my-application", { token: person.token })).body.data.application
    expect(mine.documents[0]).toMatchObject({ isVerified: null })
    expect(mine.documents[0]).not.toHaveProperty("notes")
  })

  it("GET /api/admin/documents/{id}/file answers the stored bytes with their type", async () => {
    const person = await applicant()
    const created = await submit(server, person.token, await applicationForm())
    const [identity, address, , picture] = created.body.data.application.documents
    const pdfFile = await getBinary(server, `/api/admin/documents/${identity.id}/file`, admin.token)
    expect([pdfFile.status, pdfFile.headers.get("content-type")]).toEqual([200, "application/pdf"])
    expect(Buffer.from(pdfFile.bytes).subarray(0, 5).toString()).toBe("%PDF-")
    expect(pdfFile.headers.get("content-disposition")).toContain("filename*=UTF-8''carte%20d'identit%C3%A9.pdf")
    expect(pdfFile.headers.get("cache-control")).toBe("private, no-store")
    expect((await getBinary(server, `/api/admin/documents/${address.id}/file`, admin.token)).headers.get("content-type")).toBe("image/png")
    expect((await getBinary(server, `/api/admin/documents/${picture.id}/file`, admin.token)).headers.get("content-type")).toBe("image/jpeg")
    expectError(await getBinary(server, `/api/admin/documents/nope/file`, admin.token), 404, "DOCUMENT_NOT_FOUND")
  })
})

describe("the become-provider journey: reject with a reason, resubmit, verify, approve", () => {
  it("walks every state, with mails in the applicant's language", async () => {
    const person = await applicant("en", "Grace")
    const created = await submit(server, person.token, await applicationForm())
    const id = created.body.data.application.id

    // Reject: a reason is required.
    const blank = await patch(`/api/provider-applications/${id}/reject`, { rejectionReason: "   " }, admin.token)
    expectError(blank, 422, "VALIDATION_ERROR")
    expect(blank.body.details).toEqual([{ field: "rejectionReason", message: "Veuillez saisir un motif de refus." }])
    expectError(await patch(`/api/provider-applications/${id}/reject`, {}, admin.token), 422, "VALIDATION_ERROR")
    const before = Date.now()
    const rejected = await patch(
      `/api/provider-applications/${id}/reject`,
      { rejectionReason: " Pièce d'identité illisible " },
      admin.token
    )
    expect(rejected.status, rejected.text).toBe(200)
    const app = rejected.body.data.application
    expect(app).toMatchObject({
      status: "REJECTED",
      rejectionReason: "Pièce d'identité illisible",
      rejectionCount: 1,
      resubmissionState: "COOLDOWN",
      daysRemaining: 7
    })
    const next = Date.parse(app.nextSubmissionDate)
    expect(next).toBeGreaterThanOrEqual(before + 7 * DAY - 1000)
    expect(next).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000)
    expectError(
      await patch(`/api/provider-applications/${id}/reject`, { rejectionReason: "again" }, admin.token),
      409,
      "APPLICATION_NOT_PENDING"
    )
    expectError(await patch(`/api/provider-applications/${id}/approve`, {}, admin.token), 409, "APPLICATION_NOT_PENDING")
    const [rejectionMail] = await mailsTo(server, person.email)
    expect(rejectionMail!.subject).toBe(en["mail.applicationRejected.subject"])
    expect(rejectionMail!.text).toContain("Hello Grace,")
    expect(rejectionMail!.text).toContain("Reason: Pièce d'identité illisible")
    expect(rejectionMail!.text).toContain("attempts left: 2")
    expect(rejectionMail!.text).toContain("/become-provider")

    // Too early: refused with the days remaining; a new POST is refused too.
    const early = await resubmit(server, person.token, await applicationForm(), "en")
    expectError(early, 409, "RESUBMISSION_TOO_EARLY")
    // The day as people write it ("December 10, 2026"), never an ISO date inside the sentence.
    expect(early.body.message).toMatch(/^You can submit your application again in 7 days, from [A-Z][a-z]+ \d{1,2}, \d{4}\.$/)
    expectError(await submit(server, person.token, await applicationForm()), 409, "APPLICATION_REJECTED")

    // After the cooldown: an edit with one new file; the others are kept (files optional on edit).
    await cooldownOver(id)
    const mine = await api.get("/api/provider-applications/my-application", { token: person.token })
    expect(mine.body.data.application).toMatchObject({ resubmissionState: "CAN_RESUBMIT", canResubmit: true, daysRemaining: 0 })
    const oldIdentity = created.body.data.application.documents[0]
    const oldKey = (await sql<{ key: string }>(`SELECT storage_key AS key FROM application_documents WHERE id = $1`, [oldIdentity.id]))[0]!
      .key
    await patch(`/api/admin/documents/${created.body.data.application.documents[1].id}/verify`, { isVerified: true }, admin.token)
    const { fileOf, png } = await import("../profiles/support")
    const edit = new FormData()
    edit.append("motivation", "Nouvelle motivation")
    edit.append("identityDocument", fileOf(await png(), "nouvelle-carte.png"))
    edit.append("bankDocument", new File([], "")) // a browser's empty file input: no file
    const again = await resubmit(server, person.token, edit, "en")
    expect(again.status, again.text).toBe(200)
    expect(again.body.message).toBe(en["onboarding.resubmitted"])
    expect(again.body.data.application).toMatchObject({
      id,
      status: "PENDING",
      motivation: "Nouvelle motivation",
      skills: "Plomberie, chauffage, dépannage",
      rejectionCount: 1,
      nextSubmissionDate: null,
      documentCount: 4
    })
    const docs = again.body.data.application.documents
    expect(docs[0]).toMatchObject({ slot: "identityDocument", fileName: "nouvelle-carte.png", contentType: "image/png", isVerified: null })
    expect(docs[1]).toMatchObject({ id: created.body.data.application.documents[1].id, isVerified: true })
    expect(await storedKeys(server)).not.toContain(oldKey)
    expect(Date.parse(again.body.data.application.submittedAt)).toBeGreaterThan(Date.parse(created.body.data.application.submittedAt))

    // Verify every document, then approve: the applicant is a PROVIDER, with the picture as identity photo.
    for (const doc of docs)
      expect((await patch(`/api/admin/documents/${doc.id}/verify`, { isVerified: true }, admin.token)).status).toBe(200)
    const approved = await patch(`/api/provider-applications/${id}/approve`, {}, admin.token)
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body.message).toBe(fr["onboarding.approved"])
    expect(approved.body.data.application).toMatchObject({ status: "APPROVED", reviewedBy: expect.any(String), user: { role: "PROVIDER" } })
    expect((await api.get("/api/auth/me", { token: person.token })).body.data.user.role).toBe("PROVIDER")
    const me = (await api.get("/api/users/me", { token: person.token })).body.data.user
    expect(me).toMatchObject({
      role: "PROVIDER",
      dateOfBirth: "1990-05-05",
      payments: { hasAccount: false, setupPath: "/provider/payments/setup" }
    })
    expect(me.identityPhotoUrl).toMatch(new RegExp(`^/api/users/${person.user.id}/profile-photo/file\\?source=identity`))
    const photo = await api.get(`/api/users/${person.user.id}/profile-photo`)
    expect(photo.body.data).toMatchObject({ hasProfilePhoto: true, photoSource: "identity" })
    expect((await getBinary(server, photo.body.data.profilePhotoUrl)).headers.get("content-type")).toBe("image/jpeg")
    const [approvalMail] = await mailsTo(server, person.email)
    expect(approvalMail!.subject).toBe(en["mail.applicationApproved.subject"])
    expect(approvalMail!.text).toContain("/provider/payments/setup")
    expectError(await patch(`/api/provider-applications/${id}/approve`, {}, admin.token), 409, "APPLICATION_NOT_PENDING")
    expectError(await submit(server, person.token, await applicationForm()), 409, "ALREADY_PROVIDER")
    expectError(await resubmit(server, person.token, await applicationForm()), 409, "APPLICATION_APPROVED")
  })

  it("after maxAttempts rejections the application is finally refused and never reopens (French mail)", async () => {
    const person = await applicant("fr", "Louis")
    const created = await submit(server, person.token, await applicationForm())
    const id = created.body.data.application.id
    for (let attempt = 1; attempt <= 3; attempt++) {
      const reply = await patch(`/api/provider-applications/${id}/reject`, { rejectionReason: `Refus n°${attempt}` }, admin.token)
      expect(reply.body.data.application.rejectionCount).toBe(attempt)
      if (attempt < 3) {
        await cooldownOver(id)
        expect((await resubmit(server, person.token, await applicationForm({ files: {} }))).status).toBe(200)
      }
    }
    const final = (await api.get("/api/provider-applications/my-application", { token: person.token })).body.data.application
    expect(final).toMatchObject({
      status: "REJECTED",
      rejectionCount: 3,
      maxAttempts: 3,
      nextSubmissionDate: null,
      resubmissionState: "FINALLY_REFUSED",
      isFinallyRefused: true,
      canResubmit: false
    })
    const refused = await resubmit(server, person.token, await applicationForm())
    expectError(refused, 403, "APPLICATION_FINALLY_REFUSED")
    expect(refused.body.message).toBe("Candidature définitivement refusée : le nombre maximal de tentatives (3) est atteint.")
    expectError(await submit(server, person.token, await applicationForm()), 403, "APPLICATION_FINALLY_REFUSED")
    const [mail] = await mailsTo(server, person.email)
    expect(mail!.text).toContain("Bonjour Louis,")
    expect(mail!.text).toContain(fr["mail.applicationRejected.final"])
    const row = (await api.get(`/api/admin/applications?search=${encodeURIComponent(person.email)}`, { token: admin.token })).body.data
      .applications[0]
    expect(row).toMatchObject({ resubmissionState: "FINALLY_REFUSED", isFinallyRefused: true })
    // The database holds the line too.
    await expect(sql(`UPDATE provider_applications SET rejection_count = 4 WHERE id = $1`, [id])).rejects.toThrow()
  })

  it("approval is one transaction: when the mail cannot be written, the role and the status stay as they were", async () => {
    const person = await applicant()
    const created = await submit(server, person.token, await applicationForm())
    const id = created.body.data.application.id
    // Approval sends one mail: the transport fails it (any other use of the mailer fails the test by its name).
    const failing = makeTestLayer(Mailer)({ send: () => Effect.dieMessage("mail transport down") })
    const exit = await server.run(
      Effect.exit(
        Effect.flatMap(ProviderApplications, (service) => service.approve({ id: null, role: "ADMIN" }, id)).pipe(
          Effect.provide(ProviderApplicationsLive.pipe(Layer.provide(failing), Layer.provide(AppConfigOf({}))))
        )
      )
    )
    expect(exit._tag).toBe("Failure")
    expect(exit._tag === "Failure" && Cause.pretty(exit.cause)).toContain("mail transport down")
    expect((await api.get("/api/auth/me", { token: person.token })).body.data.user.role).toBe("CLIENT")
    const [row] = await sql<{ status: string }>(`SELECT status FROM provider_applications WHERE id = $1`, [id])
    expect(row!.status).toBe("PENDING")
    const photos = await sql<{ key: string | null }>(`SELECT identity_photo_key AS key FROM users WHERE id = $1`, [person.user.id])
    expect(photos[0]!.key).toBeNull()
    expect((await storedKeys(server)).filter((k) => k.startsWith("profile-photos/")).length).toBe(
      (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE identity_photo_key IS NOT NULL`))[0]!.n
    )
  })
})
