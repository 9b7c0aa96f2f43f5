import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { type Language, translate } from "../../platform/messages"
import { MarketplaceApi } from "../../app/api"
import { Identity } from "../identity"
import { CurrentUser, optionalCaller } from "../../platform/http/authentication"
import type { SearchData } from "./contract"
import { readMultipart } from "../../platform/uploads"
import type { ServicePhoto } from "./domain"
import { toCategoryView, toPhotoView, toServiceView, type ViewerCurrency } from "./views"
import { isCurrency } from "../../platform/money"
import { currencyForLanguage } from "./rates/rules"
import { ExchangeRates } from "./rates/service"
import { looseNumber } from "./domain"
import { ServiceReviews } from "./ports"
import { Catalogue, type SearchResult } from "./service"

const photosAnswer = (serviceId: string, photos: ReadonlyArray<ServicePhoto>, message: string) =>
  ok({ photos: photos.map((p) => toPhotoView(serviceId.toLowerCase(), p)) }, message)

/** Reviews shown with a service's detail (the full list is paged at /api/services/{id}/reviews). */
const SERVICE_PAGE_REVIEWS = 20

const limitOf = (value: string | undefined) => {
  const n = looseNumber(value)
  return n === undefined || Number.isNaN(n) ? undefined : n
}

const truthy = (value: string | undefined) => value !== undefined && ["true", "1", "yes", ""].includes(value.trim().toLowerCase())

/**
 * The search answer as JSON bytes, encoded once per result object and language. The views are
 * already in their wire shape (toServiceView is typed against the contract; dates serialise as ISO
 * strings), so the schema pass HttpApi would run is skipped on this hottest endpoint; and the plain
 * list's cached first page (the same result object while cached) is not even serialised again.
 */
const encodedSearch = new WeakMap<SearchResult, Map<string, Uint8Array>>()
const utf8 = new TextEncoder()
const searchResponse = (result: SearchResult, language: Language, viewer: ViewerCurrency) => {
  let perLanguage = encodedSearch.get(result)
  if (perLanguage === undefined) encodedSearch.set(result, (perLanguage = new Map()))
  // Per language and viewer's currency (the approximate prices); rates change rarely, and the cached page lives seconds.
  const key = `${language}:${viewer.currency}`
  let body = perLanguage.get(key)
  if (body === undefined) {
    const data: typeof SearchData.Type = {
      services: result.services.map((s) => toServiceView(s, language, viewer)),
      pagination: result.pagination,
      exactTotal: result.exactTotal
    }
    body = utf8.encode(JSON.stringify(ok(data)))
    perLanguage.set(key, body)
  }
  return HttpServerResponse.uint8Array(body, { contentType: "application/json" })
}

export const CategoriesHttpLive = HttpApiBuilder.group(MarketplaceApi, "categories", (handlers) =>
  Effect.gen(function* () {
    const catalogue = yield* Catalogue
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const language = yield* requestLanguage
          const all = yield* catalogue.categories({ includeServices: truthy(urlParams.includeServices) })
          return ok({ categories: all.map((c) => toCategoryView(c, language)) })
        })
      )
      .handle("popular", ({ urlParams }) =>
        Effect.gen(function* () {
          const language = yield* requestLanguage
          const all = yield* catalogue.popularCategories(limitOf(urlParams.limit))
          return ok({ categories: all.map((c) => toCategoryView(c, language)) })
        })
      )
  })
)

export const ServicesHttpLive = HttpApiBuilder.group(MarketplaceApi, "services", (handlers) =>
  Effect.gen(function* () {
    const catalogue = yield* Catalogue
    const viewer = Effect.map(optionalCaller((yield* Identity).authenticate), (user) => user?.id)
    const reviews = yield* ServiceReviews
    const rates = yield* ExchangeRates
    /** The viewer's currency: the `currency` parameter when it is one the product accepts, else their language's. */
    const viewerCurrency = (param: string | undefined) =>
      Effect.gen(function* () {
        const language = yield* requestLanguage
        const asked = param?.trim().toUpperCase() ?? ""
        return { language, currency: isCurrency(asked) ? asked : currencyForLanguage(language), rates: yield* rates.table }
      })
    const many = <E, R>(found: Effect.Effect<ReadonlyArray<Parameters<typeof toServiceView>[0]>, E, R>, currency?: string) =>
      Effect.zipWith(found, viewerCurrency(currency), (services, viewer) =>
        ok({ services: services.map((s) => toServiceView(s, viewer.language, viewer)) })
      )
    const one = <E, R>(found: Effect.Effect<Parameters<typeof toServiceView>[0], E, R>, key?: Parameters<typeof localized>[0]) =>
      Effect.gen(function* () {
        const service = yield* found
        const language = yield* requestLanguage
        return ok({ service: toServiceView(service, language) }, key === undefined ? undefined : translate(language, key))
      })

    return (
      handlers
        .handle("search", ({ urlParams }) =>
          Effect.gen(function* () {
            const language = yield* requestLanguage
            // Price ranges are in the viewer's currency: the parameter's (a wrong one is a 422), else their language's.
            const result = yield* catalogue.search({ ...urlParams, currency: urlParams.currency ?? currencyForLanguage(language) })
            const viewer = yield* viewerCurrency(urlParams.currency)
            return searchResponse(result, language, viewer)
          })
        )
        .handle("popular", ({ urlParams }) => many(catalogue.popular(limitOf(urlParams.limit)), urlParams.currency))
        .handle("recent", ({ urlParams }) => many(catalogue.recent(limitOf(urlParams.limit)), urlParams.currency))
        .handle("byCategory", ({ path, urlParams }) => many(catalogue.byCategory(path.id, limitOf(urlParams.limit)), urlParams.currency))
        .handle("byProvider", ({ path, urlParams }) => many(catalogue.byProvider(path.id, limitOf(urlParams.limit)), urlParams.currency))
        .handle("ofUser", ({ path, urlParams }) =>
          many(
            Effect.flatMap(viewer, (viewerId) => catalogue.ofUser(path.id, viewerId)),
            urlParams.currency
          )
        )
        .handle("get", ({ path, urlParams }) =>
          Effect.gen(function* () {
            const lat = limitOf(urlParams.lat)
            const lng = limitOf(urlParams.lng)
            const from = lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : undefined
            const service = yield* catalogue.get(path.id, yield* viewer, from)
            const reader = yield* viewerCurrency(urlParams.currency)
            const latest = yield* reviews.latest(service.id, SERVICE_PAGE_REVIEWS)
            return ok({ service: { ...toServiceView(service, reader.language, reader), reviews: latest } })
          })
        )
        .handle("create", ({ payload }) =>
          one(
            Effect.flatMap(CurrentUser, (actor) => catalogue.create(actor, payload)),
            "catalogue.serviceCreated"
          )
        )
        .handle("update", ({ path, payload }) =>
          one(
            Effect.flatMap(CurrentUser, (actor) => catalogue.update(actor, path.id, payload)),
            "catalogue.serviceUpdated"
          )
        )
        .handle("remove", ({ path }) =>
          Effect.gen(function* () {
            yield* catalogue.remove(yield* CurrentUser, path.id)
            return ok({}, yield* localized("catalogue.serviceDeleted"))
          })
        )
        .handle("activate", ({ path }) =>
          one(
            Effect.flatMap(CurrentUser, (actor) => catalogue.activate(actor, path.id)),
            "catalogue.serviceActivated"
          )
        )
        .handle("deactivate", ({ path }) =>
          one(
            Effect.flatMap(CurrentUser, (actor) => catalogue.deactivate(actor, path.id)),
            "catalogue.serviceDeactivated"
          )
        )
        // The body is read by readMultipart (the declared MultipartStream payload documents it and is not run).
        .handle("addPhoto", ({ path }) =>
          Effect.gen(function* () {
            const actor = yield* CurrentUser
            const form = yield* readMultipart({ files: ["photo"], fields: [] })
            return photosAnswer(
              path.id,
              yield* catalogue.addPhoto(actor, path.id, form.files.photo),
              yield* localized("catalogue.photoAdded")
            )
          })
        )
        .handle("removePhoto", ({ path }) =>
          Effect.gen(function* () {
            const photos = yield* catalogue.removePhoto(yield* CurrentUser, path.id, path.photoId)
            return photosAnswer(path.id, photos, yield* localized("catalogue.photoDeleted"))
          })
        )
        .handle("reorderPhotos", ({ path, payload }) =>
          Effect.gen(function* () {
            const photos = yield* catalogue.reorderPhotos(yield* CurrentUser, path.id, payload.photoIds)
            return photosAnswer(path.id, photos, yield* localized("catalogue.photosReordered"))
          })
        )
        .handleRaw("photoFile", ({ path }) =>
          Effect.map(catalogue.photoFile(path.id, path.photoId, path.size), (bytes) =>
            HttpServerResponse.uint8Array(bytes, {
              contentType: "image/webp",
              // The address names this content for good (a new picture gets a new photo id).
              headers: { "cache-control": "public, max-age=31536000, immutable" }
            })
          )
        )
        .handle("duplicate", ({ path }) =>
          Effect.gen(function* () {
            const suffix = yield* localized("catalogue.copySuffix")
            return yield* one(
              Effect.flatMap(CurrentUser, (actor) => catalogue.duplicate(actor, path.id, suffix)),
              "catalogue.serviceDuplicated"
            )
          })
        )
    )
  })
)
