import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart } from "@effect/platform"
import { Schema } from "effect"
import { ServiceId, UserId, Uuid } from "../../platform/ids"
import { multipartLimits } from "../../platform/upload-limits"
import {
  IdParam,
  Ok,
  PageParams,
  Pagination,
  Payload,
  PayloadLongText,
  PayloadNumber,
  PayloadText,
  PathId
} from "../../platform/http/schemas"
// The contract file, not the index: identity's index loads its handlers, which load the app's HttpApi (a cycle).
import { Authentication } from "../../platform/http/authentication"
import { ServiceStatuses } from "./rules"

/** A service's `:id`: a malformed one answers 404 SERVICE_NOT_FOUND, as an unknown one (domain.ts's ServiceNotFound). */
const ServiceIdParam = PathId(ServiceId, { code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
/** A provider's `:id` in a list of services: a malformed one answers the same 404 SERVICE_NOT_FOUND as before. */
const ProviderIdParam = PathId(UserId, { code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
/** A photo's `:photoId`: a malformed one answers 404 PHOTO_NOT_FOUND, as an unknown one. */
const PhotoIdParam = PathId(Uuid, { code: "PHOTO_NOT_FOUND", key: "catalogue.photoNotFound" }, "photoId")
const SizeParam = HttpApiSchema.param("size", Schema.String)

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its
// types. The views are built in views.ts.

// ---- Views -----------------------------------------------------------------------------------

/**
 * A service photo. Its URLs name its content for good (a new picture is a new photo): they are cached
 * for a year. `srcset` lists its WebP renditions with their widths; `width`/`height` are the largest one's
 * (the picture's proportions, for the <img> attributes that keep the layout from shifting).
 */
export const PhotoView = Schema.Struct({
  id: Schema.String,
  /** The 800-pixel rendition (or the largest below it). */
  url: Schema.String,
  /** The 400-pixel rendition: card covers on ordinary screens. */
  thumbnailUrl: Schema.String,
  srcset: Schema.String,
  width: Schema.Number,
  height: Schema.Number
})
export const PhotosData = Schema.Struct({ photos: Schema.Array(PhotoView) })

export const ServiceView = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  /** Hourly price in major units (49.5 for 49.50 EUR; 5000 for 5000 JPY). */
  price: Schema.Number,
  priceMinor: Schema.Number,
  currency: Schema.String,
  /** Minutes. */
  duration: Schema.Number,
  location: Schema.String,
  lat: Schema.Number,
  lng: Schema.Number,
  categoryId: Schema.Number,
  category: Schema.Struct({ id: Schema.Number, name: Schema.String, slug: Schema.String }),
  userId: Schema.String,
  user: Schema.Struct({
    id: Schema.String,
    firstName: Schema.String,
    lastName: Schema.String,
    /** The provider's profile photo when their profile is public (anyone may load it), else null: initials. */
    avatarUrl: Schema.NullOr(Schema.String),
    /** An admin verified the provider's identity document (the "verified identity" mark). */
    identityVerified: Schema.Boolean
  }),
  /** The provider's IANA zone: the service is offered, and its times are given, in it. */
  providerTimeZone: Schema.String,
  rating: Schema.Number,
  reviewCount: Schema.Number,
  isAvailable: Schema.Boolean,
  status: Schema.Literal(...ServiceStatuses),
  /** Present (true) while an administrator holds it disabled: its provider cannot publish it again, nor copy it, until an administrator does. */
  disabledByAdmin: Schema.optional(Schema.Boolean),
  /** The photos' URLs (their `url`), in order. */
  images: Schema.Array(Schema.String),
  /** In order: the first is the cover. */
  photos: Schema.Array(PhotoView),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  /** Kilometres from the lat/lng of the request, when given. */
  distanceKm: Schema.optional(Schema.Number),
  /**
   * The price converted into the viewer's currency at the stored rates (approximate: shown as "≈ 52 $CA"),
   * when it differs from the service's own. The viewer's currency: the `currency` parameter, else from the language (fr: EUR, en: CAD).
   */
  approxPrice: Schema.optional(Schema.Struct({ price: Schema.Number, priceMinor: Schema.Number, currency: Schema.String }))
})

export const CategoryView = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  slug: Schema.String,
  /** Public services in the category. */
  serviceCount: Schema.Number,
  services: Schema.optional(Schema.Array(ServiceView))
})

/** A review as the booking issue will answer them (empty until then). */
export const ReviewView = Schema.Struct({
  rating: Schema.Number,
  comment: Schema.String,
  createdAt: Schema.Date,
  client: Schema.Struct({ firstName: Schema.String, lastName: Schema.String })
})

export const ServiceDetail = Schema.Struct({ ...ServiceView.fields, reviews: Schema.Array(ReviewView) })
export const ServiceDetailData = Schema.Struct({ service: ServiceDetail })

export const SearchData = Schema.Struct({
  services: Schema.Array(ServiceView),
  pagination: Pagination,
  /** False when pagination.total is a lower bound (more matches beyond the pages read ahead). */
  exactTotal: Schema.Boolean
})

export const Services = Schema.Struct({ services: Schema.Array(ServiceView) })
export const ServiceData = Schema.Struct({ service: ServiceView })
export const Categories = Schema.Struct({ categories: Schema.Array(CategoryView) })

// ---- Requests --------------------------------------------------------------------------------

// Loose on purpose: business validation answers 422 per field in the user's language; only a wrong
// JSON shape (an object where a number is expected...) is a 400.
const Text = Schema.optional(Schema.NullOr(PayloadText))
const LongText = Schema.optional(Schema.NullOr(PayloadLongText))
const NumberLike = Schema.optional(Schema.NullOr(Schema.Union(PayloadNumber, PayloadText)))
const Param = Schema.optional(Schema.String)

export const ServicePayload = Payload({
  title: Text,
  description: LongText,
  price: NumberLike,
  currency: Text,
  duration: NumberLike,
  location: Text,
  lat: NumberLike,
  lng: NumberLike,
  categoryId: NumberLike,
  newCategoryName: Text
})

export const SearchParams = Schema.Struct({
  search: Param,
  category: Param,
  categoryId: Param,
  sortBy: Param,
  ...PageParams,
  lat: Param,
  lng: Param,
  radius: Param,
  near: Param,
  minPrice: Param,
  maxPrice: Param,
  /** The currency of minPrice/maxPrice and of each service's approxPrice (default: fr EUR, en CAD). */
  currency: Param,
  provider: Param
})
const LimitParam = Schema.Struct({ limit: Param, currency: Param })

export const PhotoOrderPayload = Payload({ photoIds: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))) })
const Binary = HttpApiSchema.Uint8Array({ contentType: "image/webp" })

// ---- Groups ----------------------------------------------------------------------------------

export class CategoriesApi extends HttpApiGroup.make("categories")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(Schema.Struct({ includeServices: Param }))
      .addSuccess(Ok(Categories))
  )
  .add(HttpApiEndpoint.get("popular", "/popular").setUrlParams(LimitParam).addSuccess(Ok(Categories)))
  .prefix("/categories") {}

export class ServicesApi extends HttpApiGroup.make("services")
  .add(HttpApiEndpoint.get("search", "/").setUrlParams(SearchParams).addSuccess(Ok(SearchData)))
  .add(HttpApiEndpoint.get("popular", "/popular").setUrlParams(LimitParam).addSuccess(Ok(Services)))
  .add(HttpApiEndpoint.get("recent", "/recent").setUrlParams(LimitParam).addSuccess(Ok(Services)))
  .add(HttpApiEndpoint.get("byCategory")`/category/${IdParam}`.setUrlParams(LimitParam).addSuccess(Ok(Services)))
  .add(HttpApiEndpoint.get("byProvider")`/provider/${ProviderIdParam}`.setUrlParams(LimitParam).addSuccess(Ok(Services)))
  .add(HttpApiEndpoint.get("ofUser")`/user/${ProviderIdParam}`.setUrlParams(Schema.Struct({ currency: Param })).addSuccess(Ok(Services)))
  .add(
    HttpApiEndpoint.get("get")`/${ServiceIdParam}`
      .setUrlParams(Schema.Struct({ lat: Param, lng: Param, currency: Param }))
      .addSuccess(Ok(ServiceDetailData))
  )
  .add(
    HttpApiEndpoint.post("create", "/").setPayload(ServicePayload).addSuccess(Ok(ServiceData), { status: 201 }).middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.patch("update")`/${ServiceIdParam}`.setPayload(ServicePayload).addSuccess(Ok(ServiceData)).middleware(Authentication)
  )
  .add(HttpApiEndpoint.del("remove")`/${ServiceIdParam}`.addSuccess(Ok(Schema.Struct({}))).middleware(Authentication))
  .add(HttpApiEndpoint.post("activate")`/${ServiceIdParam}/activate`.addSuccess(Ok(ServiceData)).middleware(Authentication))
  .add(HttpApiEndpoint.post("deactivate")`/${ServiceIdParam}/deactivate`.addSuccess(Ok(ServiceData)).middleware(Authentication))
  .add(
    HttpApiEndpoint.post("duplicate")`/${ServiceIdParam}/duplicate`.addSuccess(Ok(ServiceData), { status: 201 }).middleware(Authentication)
  )
  // Photos: the owner adds (multipart, file field `photo`), deletes and orders them; anyone reads the files.
  .add(
    HttpApiEndpoint.post("addPhoto")`/${ServiceIdParam}/photos`
      .setPayload(HttpApiSchema.MultipartStream(Schema.Struct({ photo: Multipart.SingleFileSchema }), multipartLimits(1)))
      .addSuccess(Ok(PhotosData), { status: 201 })
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.del("removePhoto")`/${ServiceIdParam}/photos/${PhotoIdParam}`.addSuccess(Ok(PhotosData)).middleware(Authentication))
  .add(
    HttpApiEndpoint.put("reorderPhotos")`/${ServiceIdParam}/photos/order`
      .setPayload(PhotoOrderPayload)
      .addSuccess(Ok(PhotosData))
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.get("photoFile")`/${ServiceIdParam}/photos/${PhotoIdParam}/${SizeParam}`.addSuccess(Binary))
  .prefix("/services") {}
