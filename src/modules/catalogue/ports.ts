import { Context, type Effect, type Option } from "effect"
import type { Category, NewService, ServiceListing, ServicePatch, ServicePhoto, ServiceRecord, ServiceStatus } from "./domain"
import type { Geo, Sort, TextQuery } from "./search"
import type { CurrencyRange, RateTable } from "./rates/domain"

export interface CategoryRepositoryShape {
  readonly list: () => Effect.Effect<ReadonlyArray<Category>>
  readonly findById: (id: number) => Effect.Effect<Option.Option<Category>>
  /** A category by slug or by name in either language, ignoring case and accents. */
  readonly findByName: (name: string) => Effect.Effect<Option.Option<Category>>
  /** The category of that name (ignoring case and accents), created when there is none. */
  readonly findOrCreate: (name: string) => Effect.Effect<Category>
  /** Public (active, listed) services per category id. */
  readonly publicCounts: () => Effect.Effect<ReadonlyMap<number, number>>
}
export class CategoryRepository extends Context.Tag("catalogue/CategoryRepository")<CategoryRepository, CategoryRepositoryShape>() {}

/** A search as the storage runs it (the domain has already chosen sort, bounds and paging). */
export interface ServiceQuery {
  readonly text?: TextQuery | undefined
  readonly categoryId?: number | undefined
  readonly providerId?: string | undefined
  /** Inclusive bounds on `price_cents` whatever the currency: with priceRanges, their envelope (what indexes use). */
  readonly minPriceCents?: number | undefined
  readonly maxPriceCents?: number | undefined
  /** A price range compared in one currency (rates/domain.ts rangesInEachCurrency): a service matches within its currency's range. */
  readonly priceRanges?: ReadonlyArray<CurrencyRange> | undefined
  /** The rates price sorts compare by (each price in euros); without them, prices sort as bare numbers. */
  readonly rates?: RateTable | undefined
  readonly geo?: Geo | undefined
  readonly sort: Sort
  readonly limit: number
  readonly offset: number
  /** Also answer how many services match (see resultWindow). */
  readonly withTotal: boolean
}

export interface ServicePage {
  readonly services: ReadonlyArray<ServiceListing>
  /** How many match, counted within the result window (see resultWindow); 0 when not asked. */
  readonly total: number
  /** False when the window filled up: there are at least `total` matches. */
  readonly exact: boolean
}

export interface ServiceRepositoryShape {
  /** Public services only (active, not archived, active provider). */
  readonly search: (query: ServiceQuery) => Effect.Effect<ServicePage>
  /**
   * For each given word the vocabulary does not know (as a word, or as the start of one when
   * `prefix`), up to 3 words of the vocabulary spelt like it, nearest first.
   */
  readonly similarWords: (
    words: ReadonlyArray<{ readonly word: string; readonly prefix: boolean }>
  ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
  /** Any service, archived or not (the caller decides what may be shown). */
  readonly findById: (id: string) => Effect.Effect<Option.Option<ServiceListing>>
  /** Every non-archived service of a user, newest first, whatever its status. */
  readonly listOwnedBy: (userId: string) => Effect.Effect<ReadonlyArray<ServiceListing>>
  readonly insert: (
    service: Omit<NewService, "category"> & { readonly userId: string; readonly categoryId: number; readonly status: ServiceStatus }
  ) => Effect.Effect<ServiceRecord>
  readonly update: (id: string, patch: Omit<ServicePatch, "category"> & { readonly categoryId?: number }) => Effect.Effect<void>
  /**
   * Publishes or unpublishes. An admin's decision (`byAdmin`) also sets or clears the hold that keeps the
   * provider from publishing it again; the provider's own leaves the hold as it is.
   */
  readonly setStatus: (id: string, status: ServiceStatus, byAdmin?: boolean) => Effect.Effect<void>
  readonly archive: (id: string) => Effect.Effect<void>
  /** Adds one review's rating to the service's average and count (the reviews themselves live with bookings). */
  readonly recordRating: (id: string, rating: number) => Effect.Effect<void>
}
export class ServiceRepository extends Context.Tag("catalogue/ServiceRepository")<ServiceRepository, ServiceRepositoryShape>() {}

/** A service's photos, in order (the files themselves are in the platform's Storage). */
export interface ServicePhotoRepositoryShape {
  readonly list: (serviceId: string) => Effect.Effect<ReadonlyArray<ServicePhoto>>
  /**
   * Adds a photo after the others, unless the service already has `max`: false then. Concurrent
   * additions to one service are serialised (the service's row is locked), so none passes the limit.
   */
  readonly add: (serviceId: string, photo: ServicePhoto, max: number) => Effect.Effect<boolean>
  /** Removes a photo (the others close the gap); None when the service has no such photo. */
  readonly remove: (serviceId: string, photoId: string) => Effect.Effect<Option.Option<ServicePhoto>>
  /** Puts the photos in this order (every one of the service's photo ids, each once). */
  readonly reorder: (serviceId: string, photoIds: ReadonlyArray<string>) => Effect.Effect<void>
  /** Removes every photo of the service; answers them (their files are the caller's to remove). */
  readonly removeAll: (serviceId: string) => Effect.Effect<ReadonlyArray<ServicePhoto>>
}
export class ServicePhotoRepository extends Context.Tag("catalogue/ServicePhotoRepository")<
  ServicePhotoRepository,
  ServicePhotoRepositoryShape
>() {}

/** A service's latest reviews, for its detail page (the booking module keeps reviews and provides this). */
export interface ServiceReviewsShape {
  readonly latest: (
    serviceId: string,
    limit: number
  ) => Effect.Effect<
    ReadonlyArray<{
      readonly rating: number
      readonly comment: string
      readonly createdAt: Date
      readonly client: { readonly firstName: string; readonly lastName: string }
    }>
  >
}
export class ServiceReviews extends Context.Tag("catalogue/ServiceReviews")<ServiceReviews, ServiceReviewsShape>() {}
