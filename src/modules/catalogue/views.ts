import type { Language } from "../../platform/messages"
import type { CategoryView, PhotoView, ServiceView } from "./contract"
import { toMajor } from "../../platform/money"
import { convertMinor, type RateTable } from "./rates/domain"
import { type Category, categoryName, type ServiceListing, type ServicePhoto } from "./domain"
import type { CategorySummary } from "./service"

// Catalogue records turned into the contract's views (contract.ts), by the handlers.

/** Who reads: their currency and the rates in force (for each price's approximate conversion). */
export interface ViewerCurrency {
  readonly currency: string
  readonly rates: RateTable
}

const approxPrice = (s: ServiceListing, viewer: ViewerCurrency | undefined) => {
  if (viewer === undefined || viewer.currency === s.currency) return {}
  const minor = convertMinor(s.priceMinor, s.currency, viewer.currency, viewer.rates)
  return minor === undefined
    ? {}
    : { approxPrice: { price: toMajor(minor, viewer.currency), priceMinor: minor, currency: viewer.currency } }
}

/** Where a rendition is served: the photo's id names its content, so the address never shows another picture. */
export const photoFileUrl = (serviceId: string, photoId: string, size: number) => `/api/services/${serviceId}/photos/${photoId}/${size}`

export const toPhotoView = (serviceId: string, photo: ServicePhoto): typeof PhotoView.Type => {
  const files = photo.files
  const largest = files[files.length - 1]!
  const upTo = (size: number) => [...files].reverse().find((f) => f.size <= size) ?? files[0]!
  const url = (size: number) => photoFileUrl(serviceId, photo.id, size)
  return {
    id: photo.id,
    url: url(upTo(800).size),
    thumbnailUrl: url(files[0]!.size),
    srcset: files.map((f) => `${url(f.size)} ${f.width}w`).join(", "),
    width: largest.width,
    height: largest.height
  }
}

export const toServiceView = (s: ServiceListing, language: Language, viewer?: ViewerCurrency): typeof ServiceView.Type => ({
  id: s.id,
  title: s.title,
  description: s.description,
  price: toMajor(s.priceMinor, s.currency),
  priceMinor: s.priceMinor,
  currency: s.currency,
  duration: s.durationMinutes,
  location: s.location,
  lat: s.lat,
  lng: s.lng,
  categoryId: s.categoryId,
  category: { id: s.category.id, name: categoryName(s.category, language), slug: s.category.slug },
  userId: s.userId,
  user: {
    id: s.provider.id,
    firstName: s.provider.firstName,
    lastName: s.provider.lastName,
    // The profile's public photo address (identity's /users/:id/profile-photo/file, versioned by its date).
    avatarUrl:
      s.provider.photo === null
        ? null
        : `/api/users/${s.provider.id}/profile-photo/file?source=${s.provider.photo.source}&v=${s.provider.photo.updatedAt.getTime()}`,
    identityVerified: s.provider.identityVerified
  },
  providerTimeZone: s.provider.timeZone,
  rating: s.rating,
  reviewCount: s.reviewCount,
  isAvailable: s.status === "ACTIVE" && s.archivedAt === null,
  status: s.status,
  // Only on a held service (never a public one): the spec's service shape stays as it is.
  ...(s.disabledByAdminAt === null ? {} : { disabledByAdmin: true }),
  ...photosOf(s),
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  ...(s.distanceKm === undefined ? {} : { distanceKm: Math.round(s.distanceKm * 100) / 100 }),
  ...approxPrice(s, viewer)
})

const photosOf = (s: ServiceListing) => {
  const photos = s.photos.map((p) => toPhotoView(s.id, p))
  return { images: photos.map((p) => p.url), photos }
}

export const toCategoryView = (c: Category & Partial<CategorySummary>, language: Language): typeof CategoryView.Type => ({
  id: c.id,
  name: categoryName(c, language),
  slug: c.slug,
  serviceCount: c.serviceCount ?? 0,
  ...(c.services === undefined ? {} : { services: c.services.map((s) => toServiceView(s, language)) })
})
