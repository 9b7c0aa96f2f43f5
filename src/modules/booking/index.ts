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
