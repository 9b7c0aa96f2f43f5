import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart } from "@effect/platform"
import { Schema } from "effect"
import { BookingId, Id } from "../../platform/ids"
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
import {
  BookingActions,
  BookingStatuses,
  DISPUTE_FILES_MAX,
  DisputeOutcomes,
  DisputeReasons,
  DisputeStatuses,
  EarningStates,
  PaymentEvents,
  PaymentIssues,
  PaymentStatuses,
  RescheduleStatuses
} from "./rules"
import { SlotParams, SlotsView } from "./availability/contract"

/** A booking's `:id`: a malformed one answers 404 BOOKING_NOT_FOUND, as an unknown one (domain.ts's BookingNotFound). */
const BookingIdParam = PathId(BookingId, { code: "BOOKING_NOT_FOUND", key: "booking.notFound" })

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its
// types. The views are built in views.ts.

// ---- Views -----------------------------------------------------------------------------------

const Currency = Schema.Struct({ code: Schema.String, symbol: Schema.String })

/** A proposal to move a booking (issue 12), as either party sees it. */
export const RescheduleView = Schema.Struct({
  id: Schema.String,
  /** Which side proposed it (only the other side answers). */
  proposedBy: Schema.Literal("client", "provider"),
  startTime: Schema.Date,
  endTime: Schema.Date,
  /** Minutes proposed, and the total at that duration (the booked total when the duration is kept). */
  duration: Schema.Number,
  totalMinor: Schema.Number,
  formattedTotal: Schema.String,
  /** The booking as it stood when proposed. */
  previousStartTime: Schema.Date,
  previousEndTime: Schema.Date,
  previousTotalMinor: Schema.Number,
  status: Schema.Literal(...RescheduleStatuses),
  /** An open proposal lapses then (the booking's start). */
  expiresAt: Schema.Date,
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  decidedBy: Schema.NullOr(Schema.Literal("CLIENT", "PROVIDER", "ADMIN", "SYSTEM")),
  /** The caller may accept or decline it now (open, and proposed by the other side). */
  canAnswer: Schema.Boolean
})
export type RescheduleView = typeof RescheduleView.Type

/**
 * The cancellation policy in force (issue 13; configuration): a client cancels a confirmed booking free
 * of charge until `freeHours` before its start; later `feePercent` of the total is captured from the hold.
 */
export const CancellationPolicyView = Schema.Struct({ freeHours: Schema.Number, feePercent: Schema.Number })
export type CancellationPolicyView = typeof CancellationPolicyView.Type

/** A booking's cancellation terms as the caller sees them (computed by the server: the UI does not apply the rule). */
export const CancellationTermsView = Schema.Struct({
  /** Until then the client cancels free of charge. */
  freeUntil: Schema.Date,
  feePercent: Schema.Number,
  /** What cancelling now costs the caller, in minor units (0: free; only a client pays, and only with a hold). */
  feeMinor: Schema.Number,
  formattedFee: Schema.String,
  /** The late-cancellation fee this booking's cancellation charged (0: none). */
  chargedMinor: Schema.Number,
  formattedCharged: Schema.String
})

/** A booking's dispute as the booking shows it (issue 13): why, and once decided, what was kept and the note. */
export const DisputeSummaryView = Schema.Struct({
  id: Schema.String,
  reason: Schema.Literal(...DisputeReasons),
  status: Schema.Literal(...DisputeStatuses),
  openedAt: Schema.Date,
  outcome: Schema.NullOr(Schema.Literal(...DisputeOutcomes)),
  /** What the decision keeps (captured from the hold), in minor units, and formatted; null until decided. */
  keptMinor: Schema.NullOr(Schema.Number),
  formattedKept: Schema.NullOr(Schema.String),
  /** The administrator's note, shown to both parties. */
  note: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Schema.Date)
})

/** A file of a dispute (a photo or a PDF); `url` downloads it (parties and administrators). */
export const DisputeFileView = Schema.Struct({
  id: Schema.String,
  fileName: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  url: Schema.String
})

/** A dispute with its thread: the report, then each message with its files. */
export const DisputeView = Schema.Struct({
  ...DisputeSummaryView.fields,
  bookingId: Schema.String,
  description: Schema.String,
  /** The files sent with the report. */
  files: Schema.Array(DisputeFileView),
  messages: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      author: Schema.Literal("client", "provider", "admin"),
      authorName: Schema.String,
      body: Schema.String,
      createdAt: Schema.Date,
      files: Schema.Array(DisputeFileView)
    })
  ),
  /** The caller may add messages now (the dispute is open). */
  canWrite: Schema.Boolean
})

/** A booking as its client, its provider or an admin sees it (spec section 3, "Booking"). */
export const BookingView = Schema.Struct({
  id: Schema.String,
  serviceId: Schema.String,
  service: Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    description: Schema.String,
    category: Schema.Struct({ name: Schema.String }),
    currency: Schema.String,
    /** The hourly price as booked, in major units, and formatted in the request's language. */
    price: Schema.Number,
    formattedPrice: Schema.String,
    originalPrice: Schema.Number,
    originalCurrency: Currency,
    userCurrency: Schema.Struct({ code: Schema.String, symbol: Schema.String, name: Schema.String })
  }),
  provider: Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String }),
  client: Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String }),
  clientId: Schema.String,
  providerId: Schema.String,
  /** The provider's IANA zone: the service is offered in it (screens name it beside the viewer's own). */
  providerTimeZone: Schema.String,
  /** The client's IANA zone (the provider and administrators see when the client's day it is). */
  clientTimeZone: Schema.String,
  startTime: Schema.Date,
  endTime: Schema.Date,
  /** The day of the start (YYYY-MM-DD, UTC), as the booking form sends it. */
  date: Schema.String,
  /** Minutes booked. */
  duration: Schema.Number,
  address: Schema.String,
  /** The client's notes; the provider reads them with contact details masked until the booking is agreed. */
  notes: Schema.String,
  /** The notes hold contact details the provider does not see yet (shown to the client as a notice). */
  notesMasked: Schema.Boolean,
  /** Total in major units; `totalMinor` in the currency's minor unit (what the card is charged). */
  totalPrice: Schema.Number,
  totalMinor: Schema.Number,
  currency: Schema.String,
  formattedTotal: Schema.String,
  /** What a payment made now authorises: the raised total of an accepted move awaiting it, else the total. */
  amountDueMinor: Schema.Number,
  formattedAmountDue: Schema.String,
  status: Schema.Literal(...BookingStatuses),
  /** The spec's label: PAID for a pending request whose payment is secured, else the status. */
  displayStatus: Schema.Literal(...BookingStatuses, "PAID"),
  paymentStatus: Schema.Literal(...PaymentStatuses),
  /** Which side of the booking the caller is on. */
  role: Schema.Literal("client", "provider", "admin"),
  /** What the caller may do now (the server checks again on each call). */
  actions: Schema.Array(Schema.Literal(...BookingActions)),
  rejectionReason: Schema.NullOr(Schema.String),
  cancelledBy: Schema.NullOr(Schema.String),
  cancellationReason: Schema.NullOr(Schema.String),
  cancellation: CancellationTermsView,
  holdExpiresAt: Schema.NullOr(Schema.Date),
  renderedAt: Schema.NullOr(Schema.Date),
  /** Administrators only (null for the parties): why the finished booking holds no captured money. */
  paymentIssue: Schema.NullOr(Schema.Literal(...PaymentIssues)),
  isReviewed: Schema.Boolean,
  review: Schema.NullOr(Schema.Struct({ rating: Schema.Number, comment: Schema.String, createdAt: Schema.Date })),
  /** The proposal to move the booking awaiting an answer, if any. */
  openProposal: Schema.NullOr(RescheduleView),
  /** Every proposal to move the booking, newest first. */
  reschedules: Schema.Array(RescheduleView),
  /** The problem the client reported, if any (issue 13). */
  dispute: Schema.NullOr(DisputeSummaryView),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type BookingView = typeof BookingView.Type

/** The provider calendar's event: only what the provider may see. */
export const CalendarEventView = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  serviceId: Schema.String,
  clientFirstName: Schema.String,
  clientLastName: Schema.String,
  startTime: Schema.Date,
  endTime: Schema.Date,
  status: Schema.Literal(...BookingStatuses),
  displayStatus: Schema.Literal(...BookingStatuses, "PAID")
})

export const ReviewView = Schema.Struct({
  id: Schema.String,
  rating: Schema.Number,
  comment: Schema.String,
  createdAt: Schema.Date,
  client: Schema.Struct({ firstName: Schema.String, lastName: Schema.String })
})

// ---- Requests --------------------------------------------------------------------------------

// Loose on purpose: business validation answers 422 per field in the user's language; only a wrong
// JSON shape is a 400.
const Text = Schema.optional(Schema.NullOr(PayloadText))
const LongText = Schema.optional(Schema.NullOr(PayloadLongText))
const NumberLike = Schema.optional(Schema.NullOr(Schema.Union(PayloadNumber, PayloadText)))
const Param = Schema.optional(Schema.String)

export const BookingPayload = Payload({
  serviceId: Text,
  startTime: Text,
  endTime: Text,
  address: Text,
  notes: LongText,
  /** The day of the start as the form sends it; the server relies on startTime. */
  date: Text
})

export const BookingListParams = Schema.Struct({
  /** client: bookings I made; provider: bookings of my services; all (default): both. */
  as: Param,
  /** One status, or PAID; several separated by commas. */
  status: Param,
  ...PageParams
})

export const CalendarParams = Schema.Struct({
  /** ISO instants bounding the view (default: the current month ± a week). */
  from: Param,
  to: Param
})

export const ReasonPayload = Payload({ reason: LongText })
export const CompletionPayload = Payload({ rating: NumberLike, comment: LongText })

/** The spec's checkout payload, plus the booking it pays and the billing details of the payment step. */
export const CheckoutPayload = Payload({
  bookingId: Text,
  amountCents: NumberLike,
  connectedAccountId: Text,
  currency: Text,
  productName: Text,
  quantity: NumberLike,
  billingDetails: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        name: Text,
        email: Text,
        address: Schema.optional(Schema.NullOr(Schema.Struct({ line1: Text, city: Text, postal_code: Text, country: Text })))
      })
    )
  )
})

/**
 * Where the browser pays: `url` is a hosted checkout page (Stripe's, or the sandbox's local one).
 * With Stripe and a publishable key, `clientSecret` lets the card form confirm in place instead.
 */
export const CheckoutAnswer = Schema.Struct({
  url: Schema.String,
  sessionId: Schema.String,
  mode: Schema.Literal("authorize", "save_card"),
  clientSecret: Schema.optional(Schema.String),
  publishableKey: Schema.optional(Schema.String)
})

/** A new time for a booking (ISO instants). */
export const ReschedulePayload = Payload({ startTime: Text, endTime: Text })
export const ProposalIdParam = HttpApiSchema.param("proposalId", Schema.String)

/**
 * The client's report of a problem (multipart/form-data): a reason, a description and up to three
 * files (photos or PDF, 5 MB each), fields file1..file3.
 */
export const DisputeReportForm = Schema.Struct({
  reason: Schema.optional(Schema.Literal(...DisputeReasons)),
  description: Schema.optional(Schema.String),
  file1: Schema.optional(Multipart.SingleFileSchema),
  file2: Schema.optional(Multipart.SingleFileSchema),
  file3: Schema.optional(Multipart.SingleFileSchema)
})
export const DisputeReportTextFields = ["reason", "description"] as const
/** A message added to a dispute (multipart/form-data): some text and/or up to three files. */
export const DisputeMessageForm = Schema.Struct({
  body: Schema.optional(Schema.String),
  file1: Schema.optional(Multipart.SingleFileSchema),
  file2: Schema.optional(Multipart.SingleFileSchema),
  file3: Schema.optional(Multipart.SingleFileSchema)
})
export const DisputeMessageTextFields = ["body"] as const
/** A dispute file's `:fileId`: a malformed one answers 404, as an unknown one. */
const DisputeFileIdParam = PathId(Id("DisputeFileId"), { code: "DISPUTE_FILE_NOT_FOUND", key: "booking.disputeFileNotFound" }, "fileId")
const Binary = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" })

/** An administrator's decision on a dispute: CAPTURE_ALL, CAPTURE_PART (amountMinor 1..authorised) or RELEASE, with a note. */
export const ResolveDisputePayload = Payload({ outcome: Text, amountMinor: NumberLike, note: LongText })

export const BookingData = Schema.Struct({ booking: BookingView })
export const DisputeData = Schema.Struct({ dispute: DisputeView })
export const RescheduleData = Schema.Struct({ proposal: RescheduleView, booking: BookingView })
export const BookingPage = Schema.Struct({ bookings: Schema.Array(BookingView), results: Schema.Number, pagination: Pagination })
export const ReviewPage = Schema.Struct({ reviews: Schema.Array(ReviewView), averageRating: Schema.Number, pagination: Pagination })

// ---- Groups ----------------------------------------------------------------------------------

export class BookingsApi extends HttpApiGroup.make("bookings")
  .add(
    HttpApiEndpoint.post("create", "/")
      .setPayload(BookingPayload)
      .addSuccess(Ok(Schema.Struct({ bookingData: BookingView })), { status: 201 })
  )
  .add(HttpApiEndpoint.get("mine", "/me").setUrlParams(BookingListParams).addSuccess(Ok(BookingPage)))
  /** The caller's open booking of a service (the service page's in-progress banner), or null. */
  .add(
    HttpApiEndpoint.get("activeForService")`/me/service/${IdParam}`.addSuccess(Ok(Schema.Struct({ booking: Schema.NullOr(BookingView) })))
  )
  /** The provider's calendar (spec: a provider bookings list answering data[]). */
  .add(
    HttpApiEndpoint.get("calendar", "/provider/calendar")
      .setUrlParams(CalendarParams)
      .addSuccess(Ok(Schema.Array(CalendarEventView)))
  )
  .add(HttpApiEndpoint.get("get")`/${BookingIdParam}`.addSuccess(Ok(BookingData)))
  .add(HttpApiEndpoint.post("confirm")`/${BookingIdParam}/confirm`.addSuccess(Ok(BookingData)))
  .add(HttpApiEndpoint.post("reject")`/${BookingIdParam}/reject`.setPayload(ReasonPayload).addSuccess(Ok(BookingData)))
  .add(HttpApiEndpoint.post("markRendered")`/${BookingIdParam}/mark-rendered`.addSuccess(Ok(BookingData)))
  .add(
    HttpApiEndpoint.post("confirmCompletion")`/${BookingIdParam}/confirm-completion`
      .setPayload(CompletionPayload)
      .addSuccess(Ok(BookingData))
  )
  /** Proposes a new time (issue 12): the other party accepts or declines it. */
  .add(
    HttpApiEndpoint.post("reschedule")`/${BookingIdParam}/reschedule`
      .setPayload(ReschedulePayload)
      .addSuccess(Ok(RescheduleData), { status: 201 })
  )
  /** Where the booking can move: its service's free slots, the booking itself left out (the reschedule dialog's picker). */
  .add(HttpApiEndpoint.get("rescheduleSlots")`/${BookingIdParam}/slots`.setUrlParams(SlotParams).addSuccess(Ok(SlotsView)))
  .add(HttpApiEndpoint.post("acceptReschedule")`/${BookingIdParam}/reschedule/${ProposalIdParam}/accept`.addSuccess(Ok(BookingData)))
  .add(HttpApiEndpoint.post("declineReschedule")`/${BookingIdParam}/reschedule/${ProposalIdParam}/decline`.addSuccess(Ok(BookingData)))
  /** The client reports a problem after "service rendered" (issue 13): the booking becomes DISPUTED. */
  .add(
    HttpApiEndpoint.post("reportProblem")`/${BookingIdParam}/dispute`
      .setPayload(HttpApiSchema.MultipartStream(DisputeReportForm, multipartLimits(DISPUTE_FILES_MAX)))
      .addSuccess(Ok(BookingData), { status: 201 })
  )
  .add(HttpApiEndpoint.get("dispute")`/${BookingIdParam}/dispute`.addSuccess(Ok(DisputeData)))
  .add(
    HttpApiEndpoint.post("addDisputeMessage")`/${BookingIdParam}/dispute/messages`
      .setPayload(HttpApiSchema.MultipartStream(DisputeMessageForm, multipartLimits(DISPUTE_FILES_MAX)))
      .addSuccess(Ok(DisputeData), { status: 201 })
  )
  .add(HttpApiEndpoint.get("disputeFile")`/${BookingIdParam}/dispute/files/${DisputeFileIdParam}`.addSuccess(Binary))
  /**
   * Cancels (the spec's "cancel is a delete call"); the booking is kept with its history. `acceptedFee`:
   * the late-cancellation fee the client was shown (minor units); a higher fee answers 409
   * CANCELLATION_FEE_CHANGED and cancels nothing.
   */
  .add(
    HttpApiEndpoint.del("cancel")`/${BookingIdParam}`
      .setUrlParams(Schema.Struct({ reason: Param, acceptedFee: Param }))
      .addSuccess(Ok(BookingData))
  )
  .middleware(Authentication)
  .prefix("/bookings") {}

export class CheckoutApi extends HttpApiGroup.make("checkout")
  .add(HttpApiEndpoint.post("createSession", "/checkout/session").setPayload(CheckoutPayload).addSuccess(Ok(CheckoutAnswer)))
  .middleware(Authentication)
  .prefix("/payments") {}

export class ReviewsApi extends HttpApiGroup.make("reviews").add(
  HttpApiEndpoint.get("ofService")`/services/${IdParam}/reviews`.setUrlParams(Schema.Struct(PageParams)).addSuccess(Ok(ReviewPage))
) {}

/** The cancellation policy, public: stated before booking (the service page and the booking form). */
export class CancellationPolicyApi extends HttpApiGroup.make("cancellationPolicy").add(
  HttpApiEndpoint.get("get", "/cancellation-policy").addSuccess(Ok(CancellationPolicyView))
) {}

/** A provider's private calendar feed (iCalendar): the URL to subscribe to from a calendar application. */
export const CalendarFeedView = Schema.Struct({ url: Schema.String })

/**
 * The caller's (a provider's) calendar feed: the URL, made on the first call, and its regeneration
 * (the old URL stops working). The feed itself, `GET /api/calendar/{token}.ics`, is public (the token
 * is the secret) and answers text/calendar, so it is routed beside this contract (src/app/server.ts).
 */
export class CalendarFeedApi extends HttpApiGroup.make("calendarFeed")
  .add(HttpApiEndpoint.get("mine", "/me/calendar-feed").addSuccess(Ok(CalendarFeedView)))
  .add(HttpApiEndpoint.post("regenerate", "/me/calendar-feed/regenerate").addSuccess(Ok(CalendarFeedView)))
  .middleware(Authentication)
  .prefix("/providers") {}

// ---- Receipts and earnings (issue 13) --------------------------------------------------------

/** A client's receipt of a booking's payment, in the request's language (figures from the payment records). */
export const ReceiptView = Schema.Struct({
  bookingId: Schema.String,
  /** The receipt's number people read and type ("R-7F3K-9Q2M-X4TD"), derived from the booking's id. */
  number: Schema.String,
  /** The platform's name, as the receipt names the issuer, and where to write to it. */
  platform: Schema.String,
  platformEmail: Schema.String,
  /** Where the service took place (the booking's address). */
  address: Schema.String,
  /** "2 juin 2026, 15:00 – 16:30, heure de Paris": the service's date in the client's zone, named. */
  formattedPeriod: Schema.String,
  /** "45,00 € / h × 1,5 h": the rate and the duration the total came from. */
  formattedRate: Schema.String,
  /** The card the money was taken from ("Visa •••• 4242"), "—" when the records name none. */
  paymentMethod: Schema.String,
  /** The taxes' mention (none charged on the receipt). */
  taxNote: Schema.String,
  /** For the provider and administrators: the platform's commission kept and what is left to the provider; null for the client. */
  providerShare: Schema.NullOr(
    Schema.Struct({
      percent: Schema.Number,
      commissionMinor: Schema.Number,
      formattedCommission: Schema.String,
      netMinor: Schema.Number,
      formattedNet: Schema.String
    })
  ),
  service: Schema.Struct({ title: Schema.String }),
  /** Both parties, with their postal address on one line (null where their profile gives none). */
  provider: Schema.Struct({ firstName: Schema.String, lastName: Schema.String, postalAddress: Schema.NullOr(Schema.String) }),
  client: Schema.Struct({ firstName: Schema.String, lastName: Schema.String, postalAddress: Schema.NullOr(Schema.String) }),
  startTime: Schema.Date,
  endTime: Schema.Date,
  /** The client's zone: the receipt writes its times in it, named. */
  clientTimeZone: Schema.String,
  formattedStartTime: Schema.String,
  currency: Schema.String,
  /** Captured in all, in minor units, and as the receipt writes it. */
  paidMinor: Schema.Number,
  formattedPaid: Schema.String,
  /** The (first) capture. */
  paidAt: Schema.Date,
  formattedPaidAt: Schema.String,
  refunds: Schema.Array(
    Schema.Struct({
      amountMinor: Schema.Number,
      formattedAmount: Schema.String,
      refundedAt: Schema.Date,
      formattedRefundedAt: Schema.String
    })
  ),
  refundedMinor: Schema.Number,
  formattedRefunded: Schema.String,
  /** paid − refunded. */
  netPaidMinor: Schema.Number,
  formattedNetPaid: Schema.String,
  /** The same receipt as a PDF (`GET`, with the bearer token). */
  pdfPath: Schema.String
})
export type ReceiptView = typeof ReceiptView.Type

/** One event of a booking's payment timeline (payment-timeline.ts): what one payment operation did. */
export const PaymentEventView = Schema.Struct({
  event: Schema.Literal(...PaymentEvents),
  amountMinor: Schema.Number,
  currency: Schema.String,
  /** The platform's commission taken (a capture) or given back (a refund); null for the client. */
  feeMinor: Schema.NullOr(Schema.Number),
  /** The card ("visa •••• 4242") or method type ("card", "sepa_debit") used; null when none is known. */
  method: Schema.NullOr(Schema.String),
  at: Schema.Date
})
export type PaymentEventView = typeof PaymentEventView.Type

/**
 * The caller's receipt of a booking (its client, its provider with the commission, or an administrator; 404 for anyone else, 409
 * RECEIPT_NOT_AVAILABLE while nothing is captured), as JSON and as a PDF.
 */
export class ReceiptsApi extends HttpApiGroup.make("receipts")
  .add(HttpApiEndpoint.get("receipt")`/${BookingIdParam}/receipt`.addSuccess(Ok(Schema.Struct({ receipt: ReceiptView }))))
  /** The booking's payment timeline, oldest first, for its client, its provider and administrators (404 for anyone else). */
  .add(
    HttpApiEndpoint.get("payments")`/${BookingIdParam}/payments`.addSuccess(Ok(Schema.Struct({ payments: Schema.Array(PaymentEventView) })))
  )
  .add(
    HttpApiEndpoint.get("receiptPdf")`/${BookingIdParam}/receipt.pdf`.addSuccess(
      HttpApiSchema.Uint8Array({ contentType: "application/pdf" })
    )
  )
  .middleware(Authentication)
  .prefix("/bookings") {}

const Money = {
  grossMinor: Schema.Number,
  commissionMinor: Schema.Number,
  netMinor: Schema.Number,
  refundedMinor: Schema.Number,
  formattedGross: Schema.String,
  formattedCommission: Schema.String,
  formattedNet: Schema.String,
  formattedRefunded: Schema.String
}

/** One booking's money for its provider: gross (captured − refunded), the platform's commission, the net. */
export const EarningView = Schema.Struct({
  bookingId: Schema.String,
  serviceTitle: Schema.String,
  clientName: Schema.String,
  startTime: Schema.Date,
  /** When the money was taken (a hold: when it was made), and that month in the provider's zone (YYYY-MM). */
  date: Schema.Date,
  month: Schema.String,
  state: Schema.Literal(...EarningStates),
  currency: Schema.String,
  ...Money
})
export type EarningView = typeof EarningView.Type

/** Sums of one currency: money kept (gross, commission, net, refunded) and, apart, money still held. */
export const EarningTotalView = Schema.Struct({
  currency: Schema.String,
  ...Money,
  heldMinor: Schema.Number,
  formattedHeld: Schema.String,
  bookings: Schema.Number
})

export const EarningsPage = Schema.Struct({
  earnings: Schema.Array(EarningView),
  pagination: Pagination,
  /** Over every line, not just this page; never across currencies. */
  totals: Schema.Struct({
    byCurrency: Schema.Array(EarningTotalView),
    /** Newest month first. */
    byMonth: Schema.Array(Schema.extend(EarningTotalView, Schema.Struct({ month: Schema.String })))
  }),
  commissionPercent: Schema.Number,
  /** The provider's zone, in which months are counted. */
  timeZone: Schema.String
})

/** A provider's earnings (`/provider/earnings`): paged lines with their totals, and the whole list as CSV. */
export class EarningsApi extends HttpApiGroup.make("earnings")
  .add(HttpApiEndpoint.get("mine", "/me/earnings").setUrlParams(Schema.Struct(PageParams)).addSuccess(Ok(EarningsPage)))
  .add(HttpApiEndpoint.get("csv", "/me/earnings.csv").addSuccess(HttpApiSchema.Text({ contentType: "text/csv" })))
  .middleware(Authentication)
  .prefix("/providers") {}
