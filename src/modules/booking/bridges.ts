import { Effect, Layer } from "effect"
import { ServiceReviews } from "../catalogue"
import { ChargeEventSink } from "../payments"
import { ReviewRepository } from "./ports"
import { Bookings } from "./service"

// Ports other modules declare and the booking module implements (their dependency points the other way).

/** The service page's reviews, for the catalogue. */
export const ServiceReviewsLive = Layer.effect(
  ServiceReviews,
  Effect.map(ReviewRepository, (reviews) => ({
    latest: (serviceId, limit) => Effect.map(reviews.ofService(serviceId, limit, 0), (page) => page.items)
  }))
)

/** Payments hands verified charge events to the booking they concern. */
export const ChargeEventSinkLive = Layer.effect(
  ChargeEventSink,
  Effect.map(Bookings, (bookings) => ({ apply: bookings.applyChargeEvent }))
)
