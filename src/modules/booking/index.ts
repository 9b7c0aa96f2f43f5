export {
  type BookingState,
  type BookingStatus,
  BookingStatuses,
  type Command,
  displayStatus,
  type PaymentStatus,
  PaymentStatuses,
  transition
} from "./domain"
export { type BookingDetail, type BookingRecord, BookingRepository, ReviewRepository } from "./ports"
export { Bookings, BookingsLive, Queues, SWEEP_CRON, type UserCommand } from "./service"
export { BookingsApi, CheckoutApi, ReviewsApi } from "./contract"
export { toBookingView } from "./views"
export { BookingsHttpLive, CheckoutHttpLive, ReviewsHttpLive } from "./http"
export { BookingPostgresAdapters } from "./adapters/postgres"
export { BookingJobsLive } from "./jobs"
export { ChargeEventSinkLive, ServiceReviewsLive } from "./bridges"
export { BookingMemoryAdapters } from "./adapters/memory"
export { seedDemoBookings } from "./demo"
