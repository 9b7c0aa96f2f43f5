import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { MarketplaceApi } from "../../app/api"
import { now } from "../../platform/clock"
import { PayloadTooLarge, UnsupportedMediaType } from "../../platform/errors"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { type MessageKey, translate } from "../../platform/messages"
import { pageOf, pagination } from "../../platform/paging"
import { contentDisposition, readMultipart, uploadDisposition } from "../../platform/uploads"
import { CurrentUser } from "../../platform/http/authentication"
import { FormTextFields } from "./contract"
import { toAdminApplicationView, toAdminDocumentView, toApplicationRowView, toApplicationView } from "./views"
import { type DocumentSlot, DocumentSlots } from "./domain"
import { ProviderApplications } from "./service"

const isSlot = (field: string | undefined): field is DocumentSlot => (DocumentSlots as ReadonlyArray<string>).includes(field ?? "")

/** Names the faulty file in a 413 or 415, in the request's language ("Pièce d'identité : ..."). */
const namingTheFile = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is E & (PayloadTooLarge | UnsupportedMediaType) =>
      (error instanceof PayloadTooLarge && error.code === "FILE_TOO_LARGE") ||
      (error instanceof UnsupportedMediaType && error.code === "UNSUPPORTED_FILE_TYPE"),
    (error) =>
      Effect.flatMap(requestLanguage, (language) => {
        const field = error.params?.field
        if (!isSlot(field)) return Effect.fail(error)
        const params = { label: translate(language, `onboarding.document.${field}` as MessageKey) }
        return Effect.fail(
          error._tag === "PayloadTooLarge"
            ? new PayloadTooLarge({ code: error.code, key: "onboarding.fileTooLarge", params })
            : new UnsupportedMediaType({
                code: error.code,
                key: field === "profilePicture" ? "onboarding.unsupportedPicture" : "onboarding.unsupportedDocument",
                params
              })
        )
      })
  )

export const ProviderApplicationsHttpLive = HttpApiBuilder.group(MarketplaceApi, "providerApplications", (handlers) =>
  Effect.gen(function* () {
    const service = yield* ProviderApplications
    // The body is read by readMultipart (the declared MultipartStream payload documents it and is not run).
    const read = Effect.map(readMultipart({ files: DocumentSlots, fields: FormTextFields }), (form) => ({
      input: form.fields,
      files: form.files
    }))

    return handlers
      .handle("myApplication", () =>
        Effect.gen(function* () {
          const mine = yield* service.mine(yield* CurrentUser)
          const at = yield* now
          return ok({ application: Option.getOrNull(Option.map(mine, (detail) => toApplicationView(detail, at))) })
        })
      )
      .handle("submit", () =>
        namingTheFile(
          Effect.gen(function* () {
            const user = yield* CurrentUser
            yield* service.precheck(user, "create")
            const { input, files } = yield* read
            const detail = yield* service.submit(user, input, files)
            return ok({ application: toApplicationView(detail, yield* now) }, yield* localized("onboarding.submitted"))
          })
        )
      )
      .handle("resubmit", () =>
        namingTheFile(
          Effect.gen(function* () {
            const user = yield* CurrentUser
            yield* service.precheck(user, "edit")
            const { input, files } = yield* read
            const detail = yield* service.resubmit(user, input, files)
            return ok({ application: toApplicationView(detail, yield* now) }, yield* localized("onboarding.resubmitted"))
          })
        )
      )
      .handle("replaceDocument", ({ path }) =>
        namingTheFile(
          Effect.gen(function* () {
            const user = yield* CurrentUser
            yield* service.precheckReplacement(user, path.slot)
            const slot = path.slot as DocumentSlot
            const form = yield* readMultipart({ files: [slot], fields: [`${slot}Type`] })
            const detail = yield* service.replaceDocument(user, slot, { type: form.fields[`${slot}Type`] }, form.files[slot])
            return ok({ application: toApplicationView(detail, yield* now) }, yield* localized("onboarding.replacementSent"))
          })
        )
      )
      .handle("approve", ({ path }) =>
        Effect.gen(function* () {
          const detail = yield* service.approve(yield* CurrentUser, path.id)
          return ok({ application: toAdminApplicationView(detail, yield* now) }, yield* localized("onboarding.approved"))
        })
      )
      .handle("reject", ({ path, payload }) =>
        Effect.gen(function* () {
          const detail = yield* service.reject(yield* CurrentUser, path.id, payload.rejectionReason ?? undefined)
          return ok({ application: toAdminApplicationView(detail, yield* now) }, yield* localized("onboarding.rejected"))
        })
      )
  })
)

/** Applications per page when the request names no size. */
const APPLICATIONS_PAGE_SIZE = 20

export const AdminApplicationsHttpLive = HttpApiBuilder.group(MarketplaceApi, "adminApplications", (handlers) =>
  Effect.gen(function* () {
    const service = yield* ProviderApplications
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const { page, limit } = pageOf(urlParams, APPLICATIONS_PAGE_SIZE)
          const found = yield* service.list(yield* CurrentUser, { search: urlParams.search, status: urlParams.status, page, limit })
          const at = yield* now
          return ok({
            applications: found.rows.map((row) => toApplicationRowView(row, at)),
            pagination: pagination(found.total, page, limit)
          })
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const detail = yield* service.get(yield* CurrentUser, path.id)
          return ok({ application: toAdminApplicationView(detail, yield* now) })
        })
      )
      .handle("verifyDocument", ({ path, payload }) =>
        Effect.gen(function* () {
          const document = yield* service.verifyDocument(yield* CurrentUser, path.id, payload)
          return ok({ document: toAdminDocumentView(document) }, yield* localized("onboarding.documentDecided"))
        })
      )
      .handle("requestReplacement", ({ path, payload }) =>
        Effect.gen(function* () {
          const document = yield* service.requestReplacement(yield* CurrentUser, path.id, payload.reason)
          return ok({ document: toAdminDocumentView(document) }, yield* localized("onboarding.replacementRequested"))
        })
      )
      .handleRaw("documentFile", ({ path }) =>
        Effect.gen(function* () {
          const { document, bytes } = yield* service.documentFile(yield* CurrentUser, path.id)
          return HttpServerResponse.uint8Array(bytes, {
            contentType: document.contentType,
            headers: {
              "content-disposition": uploadDisposition(document.contentType, document.fileName),
              "cache-control": "private, no-store"
            }
          })
        })
      )
  })
)
