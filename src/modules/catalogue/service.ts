import { Clock, Context, Effect, Layer, Option } from "effect"
import {
  type BadRequest,
  type Conflict,
  type Forbidden,
  invalid,
  issue,
  type NotFound,
  type PayloadTooLarge,
  type ServiceUnavailable,
  type UnsupportedMediaType,
  type ValidationFailed
} from "../../platform/errors"
import { newId } from "../../platform/clock"
import { newStorageKey, removeAll, Storage } from "../../platform/storage"
import { checkFile, ImageTypes, type IncomingFile, isAbsent, webpRenditions, type DecodeFailure } from "../../platform/uploads"
import { Transactional } from "../../platform/transaction"
import { AuditTrail } from "../../platform/audit/port"
import { type Actor, requireRole } from "../identity"
import { PaymentAccounts } from "../payments"
import {
  type Category,
  CategoryNotFound,
  copyTitle,
  DisabledByAdmin,
  isVisibleTo,
  NotServiceOwner,
  parseCategoryId,
  PaymentAccountRequired,
  PhotoNotFound,
  photoOrder,
  type ServicePhoto,
  TooManyPhotos,
  ProviderNotPayable,
  type ServiceInput,
  type ServiceListing,
  ServiceNotFound,
  UnknownCategory,
  validateNewService,
  validateServicePatch
} from "./domain"
import { distanceKm } from "./geography"
import {
  correctableWords,
  isUnfiltered,
  isWidened,
  needsRates,
  pagination,
  paging,
  parseSearch,
  pricedQuery,
  type SearchInput,
  widenQuery
} from "./search"
import { CategoryRepository, type ServicePage, ServicePhotoRepository, type ServiceQuery, ServiceRepository } from "./ports"
import { MAX_SERVICE_PHOTOS, PHOTO_SIZES } from "./rules"
import { PLACE_QUERY_MAX } from "./places/domain"
import { Gazetteer } from "./places/ports"
import { ExchangeRates } from "./rates/service"

export interface CategorySummary extends Category {
  /** Public services in the category. */
  readonly serviceCount: number
  /** The newest of them, when asked for (includeServices). */
  readonly services?: ReadonlyArray<ServiceListing>
}

export interface SearchResult {
  readonly services: ReadonlyArray<ServiceListing>
  readonly pagination: { readonly total: number; readonly page: number; readonly limit: number; readonly pages: number }
  /** False when `total` is a lower bound: more matches exist beyond the pages read ahead. */
  readonly exactTotal: boolean
}

export const POPULAR_DEFAULT = 6
export const RECENT_DEFAULT = 6
export const BY_CATEGORY_DEFAULT = 20
export const BY_PROVIDER_DEFAULT = 100
export const CATEGORY_SERVICES = 6
/**
 * How long this process reuses the plain list's first page and the category counts. Writes made
 * through this process clear it at once; other processes' writes show within this delay.
 */
export const READ_CACHE_MS = 5_000
/** Category counts change slowly and cost a scan of the index: kept longer (writes here still clear them). */
export const COUNTS_CACHE_MS = 60_000

export class Catalogue extends Context.Tag("catalogue/Catalogue")<
  Catalogue,
  {
    readonly categories: (options: { readonly includeServices: boolean }) => Effect.Effect<ReadonlyArray<CategorySummary>>
    readonly popularCategories: (limit: number | undefined) => Effect.Effect<ReadonlyArray<CategorySummary>>
    readonly search: (input: SearchInput, defaultLimit?: number) => Effect.Effect<SearchResult, ValidationFailed | ServiceUnavailable>
    readonly get: (
      id: string,
      viewerId: string | undefined,
      from?: { readonly lat: number; readonly lng: number }
    ) => Effect.Effect<ServiceListing, NotFound>
    readonly popular: (limit: number | undefined) => Effect.Effect<ReadonlyArray<ServiceListing>>
    readonly recent: (limit: number | undefined) => Effect.Effect<ReadonlyArray<ServiceListing>>
    /** By category id or slug. */
    readonly byCategory: (category: string, limit: number | undefined) => Effect.Effect<ReadonlyArray<ServiceListing>, NotFound>
    readonly byProvider: (userId: string, limit: number | undefined) => Effect.Effect<ReadonlyArray<ServiceListing>, NotFound>
    /** A user's services: all the non-deleted ones when the viewer is that user, else the public ones. */
    readonly ofUser: (userId: string, viewerId: string | undefined) => Effect.Effect<ReadonlyArray<ServiceListing>, NotFound>
    readonly create: (actor: Actor, input: ServiceInput) => Effect.Effect<ServiceListing, Forbidden | BadRequest | ValidationFailed>
    readonly update: (
      actor: Actor,
      id: string,
      input: ServiceInput
    ) => Effect.Effect<ServiceListing, NotFound | Forbidden | ValidationFailed>
    /** Deletion archives: the service leaves every list but bookings keep it. */
    readonly remove: (actor: Actor, id: string) => Effect.Effect<void, NotFound | Forbidden>
    readonly activate: (actor: Actor, id: string) => Effect.Effect<ServiceListing, NotFound | Forbidden | BadRequest | Conflict>
    readonly deactivate: (actor: Actor, id: string) => Effect.Effect<ServiceListing, NotFound | Forbidden>
    /** An INACTIVE copy titled with `suffix`, for the owner to adjust before publishing it. */
    readonly duplicate: (
      actor: Actor,
      id: string,
      suffix: string
    ) => Effect.Effect<ServiceListing, NotFound | Forbidden | BadRequest | Conflict>
    /** Adds a photo after the others (owner only; at most MAX_SERVICE_PHOTOS); answers the service's photos. */
    readonly addPhoto: (
      actor: Actor,
      id: string,
      file: IncomingFile | undefined
    ) => Effect.Effect<ReadonlyArray<ServicePhoto>, NotFound | Forbidden | DecodeFailure | ValidationFailed>
    readonly removePhoto: (actor: Actor, id: string, photoId: string) => Effect.Effect<ReadonlyArray<ServicePhoto>, NotFound | Forbidden>
    /** Every photo id of the service, in the new order (the first becomes the cover). */
    readonly reorderPhotos: (
      actor: Actor,
      id: string,
      photoIds: ReadonlyArray<string> | null | undefined
    ) => Effect.Effect<ReadonlyArray<ServicePhoto>, NotFound | Forbidden | ValidationFailed>
    /** The bytes of one rendition of a photo (`size` as in its URL: "400", "800", "1600"). */
    readonly photoFile: (id: string, photoId: string, size: string) => Effect.Effect<Uint8Array, NotFound>
    /**
     * An administrator lists or unlists any service (the back-office's availability toggle). Listing
     * keeps the publishing rule: the provider's payment account must take charges (409 otherwise).
     */
    readonly setAvailability: (
      actor: Actor,
      id: string,
      isAvailable: boolean
    ) => Effect.Effect<ServiceListing, NotFound | Forbidden | Conflict>
  }
>() {}

/** A small time-bounded cache of this process's hottest reads, cleared by every write. */
const readCache = () => {
  const entries = new Map<string, { readonly until: number; readonly value: unknown }>()
  return {
    get: <A, E, R>(key: string, compute: Effect.Effect<A, E, R>, ttl = READ_CACHE_MS): Effect.Effect<A, E, R> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const hit = entries.get(key)
        if (hit && hit.until > now) return Effect.succeed(hit.value as A)
        return Effect.tap(compute, (value) => Effect.sync(() => void entries.set(key, { until: now + ttl, value })))
      }),
    clear: Effect.sync(() => entries.clear())
  }
}

export const CatalogueLive = Layer.effect(
  Catalogue,
  Effect.gen(function* () {
    const categories = yield* CategoryRepository
    const services = yield* ServiceRepository
    const payments = yield* PaymentAccounts
    const gazetteer = yield* Gazetteer
    const exchangeRates = yield* ExchangeRates
    const tx = yield* Transactional
    const audit = yield* AuditTrail
    const photos = yield* ServicePhotoRepository
    const storage = yield* Storage
    const cache = readCache()

    const keysOf = (all: ReadonlyArray<ServicePhoto>) => all.flatMap((p) => p.files.map((f) => f.key))
    /** Stores a photo's files (under new keys), then its row; files are removed again if the row is refused. */
    const storePhoto = (
      serviceId: string,
      files: ReadonlyArray<{ readonly meta: Omit<ServicePhoto["files"][number], "key">; readonly bytes: Uint8Array }>
    ) =>
      Effect.gen(function* () {
        const photo: ServicePhoto = {
          id: yield* newId,
          files: files.map((f) => ({ ...f.meta, key: newStorageKey("service-photos") }))
        }
        yield* Effect.forEach(photo.files, (f, i) => storage.put(f.key, files[i]!.bytes), { discard: true })
        const added = yield* photos
          .add(serviceId, photo, MAX_SERVICE_PHOTOS)
          .pipe(Effect.onError(() => removeAll(storage, keysOf([photo]))))
        if (!added) yield* removeAll(storage, keysOf([photo]))
        return added
      })
    /** Removes a service's photos, rows then files (the service is being deleted). */
    const dropPhotos = (serviceId: string) => Effect.flatMap(photos.removeAll(serviceId), (gone) => removeAll(storage, keysOf(gone)))

    /** `near` (a place id or name) as the search's centre, unless the caller gave a position itself. */
    const centreOf = (input: SearchInput) =>
      Effect.gen(function* () {
        const near = input.near?.trim() ?? ""
        if (near === "" || (input.lat ?? "").trim() !== "" || (input.lng ?? "").trim() !== "") return {}
        if (near.length > PLACE_QUERY_MAX) return yield* invalid([issue("near", "places.queryTooLong")])
        const place = yield* gazetteer.resolve(near)
        if (place === null) return yield* invalid([issue("near", "places.unknown")])
        return { lat: String(place.lat), lng: String(place.lng) }
      })

    const list = (query: Omit<ServiceQuery, "offset" | "withTotal">) =>
      Effect.map(services.search({ ...query, offset: 0, withTotal: false }), (page) => page.services)
    const limitOf = (limit: number | undefined, fallback: number) => paging(1, limit, fallback).limit

    const counted = cache.get(
      "categories",
      Effect.zipWith(categories.list(), categories.publicCounts(), (all, counts) =>
        all.map((c): CategorySummary => ({ ...c, serviceCount: counts.get(c.id) ?? 0 }))
      ),
      COUNTS_CACHE_MS
    )

    /** A service the actor owns and may change (archived services are gone: 404). The id is a UUID (decoded at the HTTP edge). */
    const owned = (actor: Actor, id: string) =>
      Effect.gen(function* () {
        const found = yield* services.findById(id.toLowerCase())
        if (Option.isNone(found) || found.value.archivedAt !== null) return yield* ServiceNotFound
        if (found.value.userId !== actor.id) return yield* NotServiceOwner
        return found.value
      })

    const reload = (id: string) => Effect.map(services.findById(id), Option.getOrThrow)

    const requirePaymentAccount = (actor: Actor) =>
      Effect.flatMap(payments.canTakeCharges(actor.id), (ready) => (ready ? Effect.void : Effect.fail(PaymentAccountRequired)))

    const categoryIdOf = (choice: { readonly _tag: "Existing"; readonly id: number } | { readonly _tag: "New"; readonly name: string }) =>
      choice._tag === "New"
        ? Effect.map(categories.findOrCreate(choice.name), (c) => c.id)
        : Effect.flatMap(categories.findById(choice.id), (c) =>
            Option.isSome(c) ? Effect.succeed(c.value.id) : Effect.fail(UnknownCategory)
          )

    const runSearch = (query: ServiceQuery, page: number): Effect.Effect<SearchResult> =>
      Effect.gen(function* () {
        let result: ServicePage = yield* services.search(query)
        // Typo tolerance: a short query that finds nothing is retried with each word widened to
        // the catalogue words spelt like it ("jardinnage" also looks for "jardinage").
        if (result.total === 0 && query.text !== undefined) {
          const words = correctableWords(query.text)
          if (words.length > 0) {
            const widened = widenQuery(query.text, yield* services.similarWords(words))
            if (isWidened(query.text, widened)) result = yield* services.search({ ...query, text: widened })
          }
        }
        return { services: result.services, pagination: pagination(result.total, page, query.limit), exactTotal: result.exact }
      })

    return {
      categories: ({ includeServices }) =>
        includeServices
          ? Effect.flatMap(counted, (all) =>
              Effect.forEach(all, (c) =>
                Effect.map(list({ categoryId: c.id, sort: "newest", limit: CATEGORY_SERVICES }), (s) => ({ ...c, services: s }))
              )
            )
          : counted,

      popularCategories: (limit) =>
        Effect.map(counted, (all) =>
          [...all].sort((a, b) => b.serviceCount - a.serviceCount || a.id - b.id).slice(0, limitOf(limit, POPULAR_DEFAULT))
        ),

      search: (input, defaultLimit) =>
        Effect.gen(function* () {
          const criteria = yield* parseSearch({ ...input, ...(yield* centreOf(input)) }, defaultLimit)
          const { offset } = paging(criteria.page, criteria.limit)
          let categoryId: number | undefined
          if (criteria.category?._tag === "Id") categoryId = criteria.category.id
          else if (criteria.category?._tag === "Name") {
            const found = yield* categories.findByName(criteria.category.name)
            // An unknown category matches nothing.
            if (Option.isNone(found)) return { services: [], pagination: pagination(0, criteria.page, criteria.limit), exactTotal: true }
            categoryId = found.value.id
          }
          // Prices in different currencies are compared in euros: the viewer's range becomes one range per
          // currency (their envelope stays a plain bound the indexes use), and price sorts convert.
          const prices = needsRates(criteria) ? pricedQuery(criteria, yield* exchangeRates.table) : {}
          if (prices === undefined) return { services: [], pagination: pagination(0, criteria.page, criteria.limit), exactTotal: true }
          const query: ServiceQuery = {
            text: criteria.text,
            categoryId,
            providerId: criteria.providerId,
            ...prices,
            geo: criteria.geo,
            sort: criteria.sort,
            limit: criteria.limit,
            offset,
            withTotal: true
          }
          // The plain list's first page is what every visitor loads first.
          if (isUnfiltered(criteria) && criteria.page === 1) {
            return yield* cache.get(`first:${criteria.sort}:${criteria.limit}`, runSearch(query, 1))
          }
          return yield* runSearch(query, criteria.page)
        }),

      get: (id, viewerId, from) =>
        Effect.gen(function* () {
          const found = yield* services.findById(id.toLowerCase())
          if (Option.isNone(found) || !isVisibleTo(found.value, viewerId)) return yield* ServiceNotFound
          return from ? { ...found.value, distanceKm: distanceKm(from, found.value) } : found.value
        }),

      popular: (limit) => list({ sort: "rating", limit: limitOf(limit, POPULAR_DEFAULT) }),
      recent: (limit) => list({ sort: "newest", limit: limitOf(limit, RECENT_DEFAULT) }),

      byCategory: (category, limit) =>
        Effect.gen(function* () {
          const id = parseCategoryId(category)
          const found = id !== undefined ? yield* categories.findById(id) : yield* categories.findByName(category)
          if (Option.isNone(found)) return yield* CategoryNotFound
          return yield* list({ categoryId: found.value.id, sort: "newest", limit: limitOf(limit, BY_CATEGORY_DEFAULT) })
        }),

      byProvider: (userId, limit) => list({ providerId: userId.toLowerCase(), sort: "newest", limit: limitOf(limit, BY_PROVIDER_DEFAULT) }),

      ofUser: (userId, viewerId) =>
        userId.toLowerCase() === viewerId
          ? services.listOwnedBy(viewerId)
          : list({ providerId: userId.toLowerCase(), sort: "newest", limit: BY_PROVIDER_DEFAULT }),

      create: (actor, input) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "PROVIDER")
          yield* requirePaymentAccount(actor)
          const fields = yield* validateNewService(input)
          const created = yield* tx.run(
            Effect.gen(function* () {
              const categoryId = yield* categoryIdOf(fields.category)
              return yield* services.insert({ ...fields, userId: actor.id, categoryId, status: "ACTIVE" })
            })
          )
          yield* cache.clear
          return yield* reload(created.id)
        }),

      update: (actor, id, input) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          const { category, ...patch } = yield* validateServicePatch(input, current)
          yield* tx.run(
            Effect.gen(function* () {
              const categoryId = category === undefined ? undefined : yield* categoryIdOf(category)
              yield* services.update(current.id, { ...patch, ...(categoryId === undefined ? {} : { categoryId }) })
            })
          )
          yield* cache.clear
          return yield* reload(current.id)
        }),

      remove: (actor, id) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          yield* services.archive(current.id)
          // Bookings keep the row, not the pictures.
          yield* dropPhotos(current.id)
          yield* cache.clear
        }),

      activate: (actor, id) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          if (current.disabledByAdminAt !== null) return yield* DisabledByAdmin
          // Activating publishes: the same payment rule as creating.
          if (current.status !== "ACTIVE") {
            yield* requirePaymentAccount(actor)
            yield* services.setStatus(current.id, "ACTIVE")
            yield* cache.clear
          }
          return yield* reload(current.id)
        }),

      deactivate: (actor, id) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          if (current.status !== "INACTIVE") {
            yield* services.setStatus(current.id, "INACTIVE")
            yield* cache.clear
          }
          return yield* reload(current.id)
        }),

      setAvailability: (actor, id, isAvailable) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const found = yield* services.findById(id.toLowerCase())
          if (Option.isNone(found) || found.value.archivedAt !== null) return yield* ServiceNotFound
          const current = found.value
          const status = isAvailable ? "ACTIVE" : "INACTIVE"
          // The change and its audit entry in one transaction.
          const decided = (facts: { readonly status: string; readonly heldByAdmin: boolean }) =>
            tx.run(
              Effect.zipRight(
                services.setStatus(current.id, status, true),
                audit.record({
                  actorId: actor.id,
                  action: isAvailable ? "SERVICE_ENABLED" : "SERVICE_DISABLED",
                  subject: { type: "SERVICE", id: current.id },
                  before: facts,
                  after: { status, heldByAdmin: !isAvailable }
                })
              )
            )
          const before = { status: current.status, heldByAdmin: current.disabledByAdminAt !== null }
          if (current.status !== status) {
            if (isAvailable && !(yield* payments.canTakeCharges(current.userId))) return yield* ProviderNotPayable
            yield* decided(before)
            yield* cache.clear
          } else if ((current.disabledByAdminAt !== null) === isAvailable) {
            // Already in the asked state: the admin's decision still sets or lifts the hold.
            yield* decided(before)
          }
          return yield* reload(current.id)
        }),

      duplicate: (actor, id, suffix) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          // A copy would be a way round the hold.
          if (current.disabledByAdminAt !== null) return yield* DisabledByAdmin
          yield* requirePaymentAccount(actor)
          const copy = yield* services.insert({
            userId: actor.id,
            categoryId: current.categoryId,
            title: copyTitle(current.title, suffix),
            description: current.description,
            priceMinor: current.priceMinor,
            currency: current.currency,
            durationMinutes: current.durationMinutes,
            location: current.location,
            lat: current.lat,
            lng: current.lng,
            status: "INACTIVE"
          })
          // The copy gets its own files: deleting a photo of one leaves the other's.
          yield* Effect.forEach(
            current.photos,
            (photo) =>
              Effect.flatMap(
                Effect.forEach(photo.files, (f) =>
                  Effect.map(storage.get(f.key), (bytes) =>
                    Option.map(bytes, (b) => ({ meta: { size: f.size, width: f.width, height: f.height, bytes: f.bytes }, bytes: b }))
                  )
                ),
                (files) =>
                  files.every(Option.isSome)
                    ? storePhoto(
                        copy.id,
                        files.map((f) => f.value)
                      )
                    : Effect.void
              ),
            { discard: true }
          )
          yield* cache.clear
          return yield* reload(copy.id)
        }),

      addPhoto: (actor, id, file) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          if (isAbsent(file)) return yield* invalid([issue("photo", "upload.required")])
          // Before decoding anything.
          if (current.photos.length >= MAX_SERVICE_PHOTOS) return yield* TooManyPhotos
          const rules = { allowed: ImageTypes, unsupported: "upload.unsupportedImage" } as const
          yield* checkFile("photo", file, rules)
          const renditions = yield* webpRenditions("photo", file.bytes, PHOTO_SIZES, rules.unsupported)
          const added = yield* storePhoto(
            current.id,
            renditions.map((r) => ({ meta: { size: r.size, width: r.width, height: r.height, bytes: r.bytes.length }, bytes: r.bytes }))
          )
          if (!added) return yield* TooManyPhotos
          yield* cache.clear
          return yield* photos.list(current.id)
        }),

      removePhoto: (actor, id, photoId) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          const removed = yield* photos.remove(current.id, photoId.toLowerCase())
          if (Option.isNone(removed)) return yield* PhotoNotFound
          yield* removeAll(storage, keysOf([removed.value]))
          yield* cache.clear
          return yield* photos.list(current.id)
        }),

      reorderPhotos: (actor, id, photoIds) =>
        Effect.gen(function* () {
          const current = yield* owned(actor, id)
          const order = yield* photoOrder(
            current.photos.map((p) => p.id),
            photoIds
          )
          yield* photos.reorder(current.id, order)
          yield* cache.clear
          return yield* photos.list(current.id)
        }),

      photoFile: (id, photoId, size) =>
        Effect.gen(function* () {
          const all = yield* photos.list(id.toLowerCase())
          const file = all.find((p) => p.id === photoId.toLowerCase())?.files.find((f) => String(f.size) === size)
          if (file === undefined) return yield* PhotoNotFound
          const bytes = yield* storage.get(file.key)
          if (Option.isNone(bytes)) return yield* PhotoNotFound
          return bytes.value
        })
    }
  })
)
