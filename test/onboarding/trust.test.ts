import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { SandboxConnect } from "../../src/modules/payments/adapters/sandbox"
import { en, fr } from "../../src/platform/messages"
import { expectError, mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { freshUser, loginToken } from "../support/accounts"
import { fileOf, pdf, sendForm, storedKeys } from "../profiles/support"
import { applicationForm, submit } from "./support"

// Issue 15, item 4: a document asked again instead of a rejection, and the "verified identity" mark.

const { server, api, admin } = httpWorld({ admin: true })

const applicant = (language: "fr" | "en" = "fr") => freshUser(server, api, "CLIENT", { preferredLanguage: language, firstName: "Nadia" })
const replaceForm = (slot: string, file: File | null, type?: string) => {
  const form = new FormData()
  if (file) form.append(slot, file)
  if (type) form.append(`${slot}Type`, type)
  return form
}
const replace = (token: string, slot: string, form: FormData, language?: string) =>
  sendForm(server, "PUT", `/api/provider-applications/my-application/documents/${slot}`, form, {
    token,
    ...(language ? { language } : {})
  })
const askAgain = (documentId: string, reason: unknown, token = admin.token, language?: string) =>
  api.patch(`/api/admin/documents/${documentId}/request-replacement`, { reason }, { token, ...(language ? { language } : {}) })
const documentOf = (application: { documents: ReadonlyArray<{ slot: string; id: string }> }, slot: string) =>
  application.documents.find((d) => d.slot === slot)!

describe("an admin asks for one document again", () => {
  it("the application stays PENDING, the applicant is mailed and replaces only that document, with no cooldown", async () => {
    const { email, token } = await applicant("en")
    const submitted = await submit(server, token, await applicationForm())
    expect(submitted.status, submitted.text).toBe(201)
    const application = submitted.body.data.application
    const identity = documentOf(application, "identityDocument")

    // A reason is required (422 on `reason`, in the admin's language); only admins may ask.
    const blank = await askAgain(identity.id, "  ", admin.token, "en")
    expectError(blank, 422, "VALIDATION_ERROR")
    expect(blank.body.details).toEqual([{ field: "reason", message: en["onboarding.replacementReasonRequired"] }])
    expectError(await askAgain(identity.id, "Illisible", token), 403, "FORBIDDEN")
    expectError(await askAgain("00000000-0000-4000-8000-000000000000", "Illisible"), 404, "DOCUMENT_NOT_FOUND")

    const asked = await askAgain(identity.id, "La photo est floue : on ne lit pas le nom.")
    expect(asked.status, asked.text).toBe(200)
    expect(asked.body.message).toBe(fr["onboarding.replacementRequested"])
    expect(asked.body.data.document).toMatchObject({
      id: identity.id,
      isVerified: false,
      replacementRequested: true,
      replacementReason: "La photo est floue : on ne lit pas le nom."
    })

    // The applicant is told in their language, with the reason and the link.
    const mail = (await mailsTo(server, email)).find((m) => m.subject === en["mail.documentRequested.subject"])
    expect(mail, "the document-requested mail").toBeDefined()
    expect(mail!.text).toContain("La photo est floue")
    expect(mail!.text).toContain(en["onboarding.document.identityDocument"])
    expect(mail!.text).toContain("/become-provider")

    // Their application is still under review, no attempt counted; the document says what is wrong.
    const mine = (await api.get("/api/provider-applications/my-application", { token })).body.data.application
    expect(mine).toMatchObject({ status: "PENDING", rejectionCount: 0, nextSubmissionDate: null, resubmissionState: "NOT_REJECTED" })
    expect(documentOf(mine, "identityDocument")).toMatchObject({ replacementRequested: true, isVerified: false })
    expect(documentOf(mine, "addressDocument")).toMatchObject({ replacementRequested: false, replacementReason: null })

    // Only the document asked again can be replaced; the whole form still cannot be resubmitted.
    const other = await replace(
      token,
      "addressDocument",
      replaceForm("addressDocument", fileOf(pdf(), "autre.pdf", "application/pdf")),
      "en"
    )
    expectError(other, 409, "REPLACEMENT_NOT_REQUESTED")
    expect(other.body.message).toBe(en["onboarding.replacementNotRequested"])
    expectError(await replace(token, "nonsense", replaceForm("nonsense", null)), 404, "DOCUMENT_NOT_FOUND")
    const empty = await replace(token, "identityDocument", replaceForm("identityDocument", null))
    expectError(empty, 422, "VALIDATION_ERROR")
    expect(empty.body.details).toEqual([{ field: "identityDocument", message: fr["upload.required"] }])
    const badType = await replace(
      token,
      "identityDocument",
      replaceForm("identityDocument", fileOf(pdf(), "p.pdf", "application/pdf"), "BANK_RIB")
    )
    expect(badType.body.details).toEqual([{ field: "identityDocumentType", message: fr["onboarding.documentTypeInvalid"] }])

    const keysBefore = new Set(await storedKeys(server))
    const sent = await replace(
      token,
      "identityDocument",
      replaceForm("identityDocument", fileOf(pdf(), "passeport net.pdf", "application/pdf"), "PASSPORT")
    )
    expect(sent.status, sent.text).toBe(200)
    expect(sent.body.message).toBe(fr["onboarding.replacementSent"])
    const after = sent.body.data.application
    expect(after).toMatchObject({ status: "PENDING", rejectionCount: 0, nextSubmissionDate: null, documentCount: 4 })
    const fresh = documentOf(after, "identityDocument")
    expect(fresh).toMatchObject({ type: "PASSPORT", fileName: "passeport net.pdf", isVerified: null, replacementRequested: false })
    expect(fresh.id).not.toBe(identity.id)
    // The other documents are untouched.
    for (const slot of ["addressDocument", "bankDocument", "profilePicture"])
      expect(documentOf(after, slot).id).toBe(documentOf(application, slot).id)
    // The old file is gone, the new one stored.
    const keysAfter = new Set(await storedKeys(server))
    expect([...keysBefore].filter((k) => !keysAfter.has(k))).toHaveLength(1)
    expect([...keysAfter].filter((k) => !keysBefore.has(k))).toHaveLength(1)

    // Once replaced, it is no longer asked: a second replacement is refused.
    expectError(
      await replace(token, "identityDocument", replaceForm("identityDocument", fileOf(pdf(), "p.pdf", "application/pdf"))),
      409,
      "REPLACEMENT_NOT_REQUESTED"
    )
  })

  it("only while the application is PENDING; a rejection keeps its attempts and cooldown", async () => {
    const { token } = await applicant()
    const application = (await submit(server, token, await applicationForm())).body.data.application
    const bank = documentOf(application, "bankDocument")
    expect((await askAgain(bank.id, "RIB coupé")).status).toBe(200)
    const rejected = await api.patch(
      `/api/provider-applications/${application.id}/reject`,
      { rejectionReason: "Incomplet" },
      { token: admin.token }
    )
    expect(rejected.status, rejected.text).toBe(200)
    expect(rejected.body.data.application).toMatchObject({ status: "REJECTED", rejectionCount: 1, resubmissionState: "COOLDOWN" })
    expectError(await askAgain(bank.id, "Encore"), 409, "APPLICATION_NOT_PENDING")
    const late = await replace(token, "bankDocument", replaceForm("bankDocument", fileOf(pdf(), "rib.pdf", "application/pdf")))
    expectError(late, 409, "APPLICATION_NOT_PENDING")
    expect(late.body.message).toBe(fr["onboarding.replacementNotPending"])
  })
})

describe("the verified identity mark", () => {
  it("shows on the provider's public profile and service cards once an admin verified the identity document, and goes with it", async () => {
    const { user, email, token } = await applicant()
    const application = (await submit(server, token, await applicationForm())).body.data.application
    const identity = documentOf(application, "identityDocument")
    const address = documentOf(application, "addressDocument")
    const verify = (id: string, isVerified: boolean | null) =>
      api.patch(`/api/admin/documents/${id}/verify`, { isVerified }, { token: admin.token })
    expect((await api.patch(`/api/provider-applications/${application.id}/approve`, {}, { token: admin.token })).status).toBe(200)
    await server.run(Effect.flatMap(SandboxConnect, (sandbox) => sandbox.provisionReady({ id: user.id, email }, "CA")))
    const provider = await loginToken(api, email, "Passw0rd!")
    const created = await api.post(
      "/api/services",
      {
        title: "Réparation de vélos",
        description: "Freins, dérailleurs et roues.",
        price: 40,
        duration: 60,
        location: "Montréal",
        categoryId: 7
      },
      { token: provider }
    )
    expect(created.status, created.text).toBe(201)
    const serviceId = created.body.data.service.id as string

    const marks = async () => {
      const profile = await api.get(`/api/users/public/${user.id}`)
      const service = await api.get(`/api/services/${serviceId}`)
      const byProvider = await api.get(`/api/services/provider/${user.id}`)
      const search = await api.get(`/api/services?provider=${user.id}`)
      const card = search.body.data.services.find((s: { id: string }) => s.id === serviceId)
      expect(card, search.text).toBeDefined()
      return [
        profile.body.data.user.identityVerified,
        service.body.data.service.user.identityVerified,
        byProvider.body.data.services[0].user.identityVerified,
        card.user.identityVerified
      ]
    }
    expect(await marks()).toEqual([false, false, false, false])
    // Another document verified is not the identity.
    expect((await verify(address.id, true)).status).toBe(200)
    expect(await marks()).toEqual([false, false, false, false])
    expect((await verify(identity.id, true)).status).toBe(200)
    expect(await marks()).toEqual([true, true, true, true])
    // The owner sees it too.
    expect((await api.get("/api/users/me", { token: provider })).body.data.user.identityVerified).toBe(true)
    // Back to pending, or rejected: the mark goes.
    expect((await verify(identity.id, null)).status).toBe(200)
    expect(await marks()).toEqual([false, false, false, false])
    expect((await verify(identity.id, true)).status).toBe(200)
    expect((await verify(identity.id, false)).status).toBe(200)
    expect(await marks()).toEqual([false, false, false, false])
  })
})
