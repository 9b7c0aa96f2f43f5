import { beforeAll, describe, expect, it } from "vitest"
import { ServiceNotFound } from "../../src/modules/catalogue/domain"
import { BookingNotFound } from "../../src/modules/booking/domain"
import { UserNotFound } from "../../src/modules/identity/account-admin"
import { SessionNotFound } from "../../src/modules/identity/domain"
import { FavoriteNotFound, ProfileNotFound } from "../../src/modules/identity/profile/domain"
import { ConversationNotFound, RecipientNotFound, ReportNotFound } from "../../src/modules/messaging/domain"
import { ApplicationNotFound, DocumentNotFound } from "../../src/modules/onboarding/domain"
import { NotFound } from "../../src/platform/errors"
import { en, fr } from "../../src/platform/messages"
import { newAdmin } from "../support/accounts"
import { httpWorld } from "../support/world"

/**
 * Path ids are decoded at the HTTP edge (platform/http/schemas.ts's PathId): a malformed one answers
 * its resource's own 404, the very error its service answers for an unknown id (code and message, in
 * the caller's language), never a 400 or a 500. Every documented path whose id is a UUID is listed
 * here, so an endpoint added later is checked too.
 */
const { server, api } = httpWorld()
let adminToken: string
let documented: ReadonlyArray<string>

beforeAll(async () => {
  adminToken = (await newAdmin(server, api)).token
  const doc = (await api.get("/api/docs")).body as {
    paths: Record<string, Record<string, { parameters?: ReadonlyArray<{ in: string; schema?: { pattern?: string } }> }>>
  }
  documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => (op.parameters ?? []).some((p) => p.in === "path" && p.schema?.pattern !== undefined))
      .map(([method]) => `${method.toUpperCase()} ${path}`)
  )
})

/** Each operation with a UUID path id, and the 404 its resource answers. */
// Availability's 404 of a provider (booking/availability/service.ts).
const ProviderNotFound = new NotFound({ code: "PROVIDER_NOT_FOUND", key: "profile.notFound" })

const resources: ReadonlyArray<readonly [string, NotFound]> = [
  ["GET /api/bookings/{id}", BookingNotFound],
  ["DELETE /api/auth/sessions/{id}", SessionNotFound],
  ["POST /api/bookings/{id}/confirm", BookingNotFound],
  ["POST /api/bookings/{id}/reject", BookingNotFound],
  ["POST /api/bookings/{id}/mark-rendered", BookingNotFound],
  ["POST /api/bookings/{id}/confirm-completion", BookingNotFound],
  ["DELETE /api/bookings/{id}", BookingNotFound],
  ["GET /api/bookings/{id}/receipt", BookingNotFound],
  ["GET /api/bookings/{id}/receipt.pdf", BookingNotFound],
  ["GET /api/bookings/{id}/payments", BookingNotFound],
  ["GET /api/services/{id}", ServiceNotFound],
  ["PATCH /api/services/{id}", ServiceNotFound],
  ["DELETE /api/services/{id}", ServiceNotFound],
  ["POST /api/services/{id}/activate", ServiceNotFound],
  ["POST /api/services/{id}/deactivate", ServiceNotFound],
  ["POST /api/services/{id}/duplicate", ServiceNotFound],
  // A photo's address: the service's id is decoded first ({photoId} itself is checked by photos.http.test.ts).
  ["POST /api/services/{id}/photos", ServiceNotFound],
  ["PUT /api/services/{id}/photos/order", ServiceNotFound],
  ["DELETE /api/services/{id}/photos/{photoId}", ServiceNotFound],
  ["GET /api/services/{id}/photos/{photoId}/{size}", ServiceNotFound],
  ["GET /api/services/provider/{id}", ServiceNotFound],
  ["GET /api/services/user/{id}", ServiceNotFound],
  ["GET /api/conversations/{id}", ConversationNotFound],
  ["POST /api/conversations/{id}/messages", ConversationNotFound],
  ["PATCH /api/conversations/{id}/read", ConversationNotFound],
  ["GET /api/conversations/{id}/messages", ConversationNotFound],
  ["POST /api/users/{id}/block", RecipientNotFound],
  ["GET /api/bookings/{id}/slots", BookingNotFound],
  ["POST /api/bookings/{id}/reschedule", BookingNotFound],
  ["POST /api/bookings/{id}/reschedule/{proposalId}/accept", BookingNotFound],
  ["POST /api/bookings/{id}/reschedule/{proposalId}/decline", BookingNotFound],
  ["POST /api/bookings/{id}/dispute", BookingNotFound],
  ["GET /api/bookings/{id}/dispute", BookingNotFound],
  ["POST /api/bookings/{id}/dispute/messages", BookingNotFound],
  ["GET /api/bookings/{id}/dispute/files/{fileId}", BookingNotFound],
  ["GET /api/providers/{id}/availability", ProviderNotFound],
  ["GET /api/services/{id}/slots", ServiceNotFound],
  ["DELETE /api/users/{id}/block", RecipientNotFound],
  ["GET /api/admin/reports/{id}", ReportNotFound],
  ["POST /api/admin/reports/{id}/decision", ReportNotFound],
  ["PATCH /api/provider-applications/{id}/approve", ApplicationNotFound],
  ["PATCH /api/provider-applications/{id}/reject", ApplicationNotFound],
  ["GET /api/admin/applications/{id}", ApplicationNotFound],
  ["PATCH /api/admin/documents/{id}/verify", DocumentNotFound],
  ["PATCH /api/admin/documents/{id}/request-replacement", DocumentNotFound],
  ["GET /api/admin/documents/{id}/file", DocumentNotFound],
  ["DELETE /api/users/favorites/{id}", FavoriteNotFound],
  ["GET /api/users/public/{id}", ProfileNotFound],
  ["GET /api/users/{id}/badges", ProfileNotFound],
  ["GET /api/users/{id}/profile-photo", ProfileNotFound],
  ["GET /api/users/{id}/profile-photo/file", ProfileNotFound],
  ["PATCH /api/admin/users/{id}/status", UserNotFound],
  ["POST /api/admin/users/{id}/stripe-connect", UserNotFound],
  ["GET /api/admin/users/{id}/stripe-connect/link", UserNotFound],
  ["GET /api/admin/users/{id}/stripe-connect/status", UserNotFound],
  ["GET /api/admin/users/{id}/stripe-connect/dashboard", UserNotFound],
  ["DELETE /api/admin/users/{id}/stripe-connect", UserNotFound],
  ["GET /api/admin/bookings/{id}", BookingNotFound],
  ["PATCH /api/admin/bookings/{id}/status", BookingNotFound],
  ["POST /api/admin/bookings/{id}/refund", BookingNotFound],
  ["POST /api/admin/bookings/{id}/dispute/resolve", BookingNotFound],
  ["PATCH /api/admin/services/{id}/status", ServiceNotFound]
]

const malformed = ["abc", "42", "not-a-uuid", "%27%20OR%201%3D1", "00000000-0000-0000-0000-00000000000g", "x".repeat(90)]

describe("a malformed path id", () => {
  it("every documented UUID path id is listed here (and no other)", () => {
    expect([...documented].sort()).toEqual(resources.map(([operation]) => operation).sort())
  })

  it("answers its resource's 404 (code and message in the caller's language), never 400 or 500, whatever the body", async () => {
    for (const [operation, error] of resources) {
      const [method, path] = operation.split(" ") as [string, string]
      for (const id of malformed) {
        for (const [language, messages] of [
          ["fr", fr],
          ["en", en]
        ] as const) {
          const reply = await api.call(method, path.replace("{id}", id), {
            token: adminToken,
            language,
            ...(method === "GET" || method === "DELETE" ? {} : { raw: '{"unknown":true}' })
          })
          const where = `${operation} with ${id} (${language})`
          expect(reply.status, where).toBe(404)
          expect(reply.body, where).toEqual({ success: false, code: error.code, message: messages[error.key] })
        }
      }
    }
  })

  it("answers what an unknown id answers, where the service refuses an unknown id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000"
    for (const path of [
      "/api/bookings/{id}",
      "/api/services/{id}",
      "/api/conversations/{id}",
      "/api/admin/applications/{id}",
      "/api/users/public/{id}"
    ]) {
      const known = await api.get(path.replace("{id}", unknown), { token: adminToken })
      const bad = await api.get(path.replace("{id}", "nope"), { token: adminToken })
      expect(known.status, path).toBe(404)
      expect(bad.body, path).toEqual(known.body)
    }
  })

  it("is still refused after authentication: anonymous callers of a private path get 401", async () => {
    const reply = await api.get("/api/bookings/nope")
    expect(reply.status).toBe(401)
  })
})
