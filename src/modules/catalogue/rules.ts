// The catalogue's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

export const ServiceStatuses = ["ACTIVE", "INACTIVE"] as const
export type ServiceStatus = (typeof ServiceStatuses)[number]

/** The sort orders of the service list and the search (`sortBy`). */
export const Sorts = ["newest", "price_asc", "price_desc", "rating", "distance", "relevance"] as const
export type Sort = (typeof Sorts)[number]

/** At most this many photos per service; the first is the cover on cards. */
export const MAX_SERVICE_PHOTOS = 8
/**
 * The WebP renditions of a service photo: the square each fits in (its longer side, pixels) and its
 * quality. 400 for cards, 800 for cards on dense screens and the gallery on phones, 1600 for the gallery.
 */
export const PHOTO_SIZES = [
  { size: 400, quality: 70 },
  { size: 800, quality: 64 },
  { size: 1600, quality: 75 }
] as const
