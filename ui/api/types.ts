// Request and answer shapes of the API, written by hand to match the server (src/modules/*/api.ts).

export type Role = "CLIENT" | "PROVIDER" | "ADMIN"
export type Language = "fr" | "en"

export interface User {
  readonly id: string
  readonly email: string
  readonly firstName: string
  readonly lastName: string
  readonly phoneNumber: string
  readonly role: Role
  readonly isEmailVerified: boolean
  readonly preferredLanguage: Language
  readonly active: boolean
  readonly createdAt: string
}

export interface Ok<T> {
  readonly success: true
  readonly data: T
  readonly message?: string
}

export interface FieldDetail {
  readonly field: string
  readonly message: string
}

export interface Failure {
  readonly success: false
  readonly code: string
  readonly message: string
  readonly details?: ReadonlyArray<FieldDetail>
}

export type Empty = Record<string, never>
export interface UserData {
  readonly user: User
}
export interface Session {
  readonly token: string
  readonly expiresIn: number
  readonly user: User
}

export interface RegisterRequest {
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
  readonly password: string
  readonly confirmPassword: string
}
export interface LoginRequest {
  readonly email: string
  readonly password: string
}
export interface EmailRequest {
  readonly email: string
}
export interface ResetPasswordRequest {
  readonly password: string
  readonly confirmPassword: string
}
export interface UpdatePasswordRequest {
  readonly currentPassword: string
  readonly newPassword: string
  readonly confirmPassword: string
}
export interface UpdateMeRequest {
  readonly preferredLanguage?: Language
  readonly [field: string]: unknown
}

export type Visibility = "PUBLIC" | "FRIENDS_ONLY" | "PRIVATE"
export interface Badge {
  readonly badge: { readonly id: string; readonly name: string; readonly description: string; readonly icon: string; readonly color: string }
}
/** The fields shared by the own and the public profile. */
export interface ProfileBase {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly role: Role
  readonly isEmailVerified: boolean
  readonly createdAt: string
  readonly avatarUrl: string | null
  readonly profilePhotoUrl: string | null
  readonly bio: string | null
  readonly description: string | null
  readonly specialities: ReadonlyArray<string> | null
  readonly experienceYears: number | null
  readonly languages: ReadonlyArray<string> | null
  readonly certifications: ReadonlyArray<string> | null
  readonly availability: string | null
  readonly profileVisibility: Visibility
  readonly location: string | null
  readonly city: string | null
  readonly country: string | null
  readonly hourlyRate: number | null
  readonly currency: string | null
  readonly servicesCount: number
  readonly averageRating: number
  readonly totalReviews: number
  readonly totalBookings: number
  readonly completedBookings: number
  readonly completionRate: number
  readonly responseTime: number | null
  readonly badges: ReadonlyArray<Badge>
}
export interface OwnProfile extends ProfileBase, User {
  readonly phoneNumber: string
  readonly dateOfBirth: string | null
  readonly payments: { readonly chargesEnabled: boolean; readonly setupPath: string } | null
}
export interface PublicProfile extends ProfileBase {
  readonly isFavorite: boolean
  readonly isOwner: boolean
}
export interface AvatarInfo {
  readonly avatarUrl: string | null
  readonly hasAvatar: boolean
}

export type ApplicationStatus = "PENDING" | "APPROVED" | "REJECTED"
export type ResubmissionState = "NOT_REJECTED" | "FINALLY_REFUSED" | "COOLDOWN" | "CAN_RESUBMIT"
export type DocumentSlot = "identityDocument" | "addressDocument" | "bankDocument" | "profilePicture"
export interface ApplicationDocument {
  readonly id: string
  readonly slot: string
  readonly type: string
  readonly fileName: string
  readonly contentType: string
  readonly size: number
  readonly isVerified: boolean | null
  readonly createdAt: string
}
export interface AdminDocument extends ApplicationDocument {
  readonly notes: string | null
  readonly verifiedAt: string | null
  readonly fileUrl: string
}
export interface ResubmissionInfo {
  readonly status: ApplicationStatus
  readonly rejectionCount: number
  readonly maxAttempts: number
  readonly nextSubmissionDate: string | null
  readonly resubmissionState: ResubmissionState
  readonly canResubmit: boolean
  readonly isFinallyRefused: boolean
  readonly daysRemaining: number | null
}
export interface Application extends ResubmissionInfo {
  readonly id: string
  readonly skills: string
  readonly experience: string
  readonly motivation: string
  readonly dateOfBirth: string | null
  readonly rejectionReason: string | null
  readonly submittedAt: string | null
  readonly reviewedAt: string | null
  readonly createdAt: string
  readonly documentCount: number
  readonly documents: ReadonlyArray<ApplicationDocument>
}
export interface AdminApplication extends Omit<Application, "documents"> {
  readonly user: {
    readonly id: string
    readonly firstName: string
    readonly lastName: string
    readonly email: string
    readonly phoneNumber: string
    readonly role: Role
    readonly isEmailVerified: boolean
    readonly createdAt: string
  }
  readonly documents: ReadonlyArray<AdminDocument>
}
export interface ApplicationRow extends ResubmissionInfo {
  readonly id: string
  readonly submittedAt: string | null
  readonly createdAt: string
  readonly documentCount: number
  readonly user: { readonly id: string; readonly firstName: string; readonly lastName: string; readonly email: string }
}

export const CONTACT_SUBJECTS = ["general", "technical", "account", "payment", "privacy", "bug", "feature", "other"] as const
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]
export interface ContactRequest {
  readonly name: string
  readonly email: string
  readonly subject: ContactSubject
  readonly message: string
}

/** Error codes the UI branches on. */
export const ErrorCodes = {
  emailNotVerified: "EMAIL_NOT_VERIFIED",
  invalidCredentials: "INVALID_CREDENTIALS",
  emailTaken: "EMAIL_TAKEN",
  invalidToken: "INVALID_TOKEN",
  sessionExpired: "SESSION_EXPIRED",
  paymentAccountRequired: "PAYMENT_ACCOUNT_REQUIRED",
  network: "NETWORK_ERROR",
  timeout: "TIMEOUT"
} as const

// ---- Catalogue (src/modules/catalogue/api.ts) ----

export const SORTS = ["newest", "price_asc", "price_desc", "rating", "distance", "relevance"] as const
export type Sort = (typeof SORTS)[number]
export type ServiceStatus = "ACTIVE" | "INACTIVE"

export interface CategoryRef {
  readonly id: number
  readonly name: string
  readonly slug?: string
}
export interface Category extends CategoryRef {
  readonly slug: string
  readonly serviceCount?: number
}
export interface Provider {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly avatarUrl: string | null
}
export interface Service {
  readonly id: string
  readonly title: string
  readonly description: string
  /** Hourly, in major units. */
  readonly price: number
  readonly priceMinor: number
  readonly currency: string
  /** Minutes. */
  readonly duration: number
  readonly location: string
  readonly lat: number
  readonly lng: number
  readonly categoryId: number
  readonly category: CategoryRef
  readonly userId: string
  readonly user: Provider
  readonly rating: number
  readonly reviewCount: number
  readonly isAvailable: boolean
  readonly status: ServiceStatus
  readonly images: ReadonlyArray<string>
  readonly createdAt: string
  readonly updatedAt: string
  /** Kilometres from the lat/lng sent with the request. */
  readonly distanceKm?: number
}
export interface Review {
  readonly rating: number
  readonly comment: string
  readonly createdAt: string
  readonly client: { readonly firstName: string; readonly lastName: string }
}
export interface ServiceDetail extends Service {
  readonly reviews: ReadonlyArray<Review>
}
export interface Pagination {
  readonly total: number
  readonly page: number
  readonly limit: number
  readonly pages: number
}
export interface ServicesData {
  readonly services: ReadonlyArray<Service>
}
export interface ServicePage extends ServicesData {
  readonly pagination: Pagination
}
export interface ServiceData {
  readonly service: Service
}
export interface ServiceDetailData {
  readonly service: ServiceDetail
}
export interface CategoriesData {
  readonly categories: ReadonlyArray<Category>
}

/** GET /services query; absent values are not sent. */
export interface ServiceQuery {
  readonly search?: string
  readonly categoryId?: number
  readonly category?: string
  readonly sortBy?: Sort
  readonly page?: number
  readonly limit?: number
  readonly lat?: number
  readonly lng?: number
  readonly radius?: number
  readonly minPrice?: number
  readonly maxPrice?: number
  readonly provider?: string
}

/** POST /services and PATCH /services/{id} (partial on PATCH). */
export interface ServiceRequest {
  readonly title?: string
  readonly description?: string
  readonly price?: number
  readonly currency?: string
  readonly duration?: number
  readonly location?: string
  readonly lat?: number
  readonly lng?: number
  readonly categoryId?: number | null
  readonly newCategoryName?: string | null
}

// ---- Provider payout account (src/modules/payments/api.ts) ----

export interface ConnectStatus {
  readonly hasAccount: boolean
  readonly accountId: string | null
  readonly country: string | null
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
}
/** These three answers are nested one level deeper (`data.data`), as the spec's client reads them. */
export interface Nested<T> {
  readonly data: T
}

// ---- Bookings, checkout and reviews (src/modules/booking/api.ts) ----

export const BOOKING_STATUSES = [
  "PENDING",
  "CONFIRMED",
  "IN_PROGRESS",
  "SERVICE_RENDERED",
  "COMPLETED",
  "VALIDATED",
  "REJECTED",
  "CANCELLED"
] as const
export type BookingStatus = (typeof BOOKING_STATUSES)[number]
/** The spec's label: PAID is a pending request whose payment is secured. */
export type DisplayStatus = BookingStatus | "PAID"
export const PAYMENT_STATUSES = [
  "UNPAID",
  "CARD_SAVED",
  "AUTHORIZED",
  "REQUIRES_ACTION",
  "CAPTURED",
  "PARTIALLY_REFUNDED",
  "REFUNDED",
  "CANCELED",
  "FAILED"
] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
export const BOOKING_ACTIONS = ["confirm", "reject", "cancel", "markRendered", "confirmCompletion", "pay"] as const
export type BookingAction = (typeof BOOKING_ACTIONS)[number]

export interface PersonRef {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
}

/** A booking as its client, its provider or an admin sees it. Dates are ISO strings on the wire. */
export interface Booking {
  readonly id: string
  readonly serviceId: string
  readonly service: {
    readonly id: string
    readonly title: string
    readonly description: string
    readonly category: { readonly name: string }
    readonly currency: string
    /** Hourly price as booked, major units. */
    readonly price: number
    readonly formattedPrice: string
    readonly originalPrice: number
    readonly originalCurrency: { readonly code: string; readonly symbol: string }
    readonly userCurrency: { readonly code: string; readonly symbol: string; readonly name: string }
  }
  readonly provider: PersonRef
  readonly client: PersonRef
  readonly clientId: string
  readonly providerId: string
  readonly startTime: string
  readonly endTime: string
  /** YYYY-MM-DD of the start (UTC). */
  readonly date: string
  /** Minutes booked. */
  readonly duration: number
  readonly address: string
  readonly notes: string
  /** Major units; `totalMinor` is what the card is charged, in the currency's minor unit. */
  readonly totalPrice: number
  readonly totalMinor: number
  readonly currency: string
  readonly formattedTotal: string
  readonly status: BookingStatus
  readonly displayStatus: DisplayStatus
  readonly paymentStatus: PaymentStatus
  /** Which side of the booking the caller is on. */
  readonly role: "client" | "provider" | "admin"
  /** What the caller may do now (the server checks again). */
  readonly actions: ReadonlyArray<BookingAction>
  readonly rejectionReason: string | null
  readonly cancelledBy: string | null
  readonly cancellationReason: string | null
  readonly holdExpiresAt: string | null
  readonly renderedAt: string | null
  readonly isReviewed: boolean
  readonly review: { readonly rating: number; readonly comment: string; readonly createdAt: string } | null
  readonly createdAt: string
  readonly updatedAt: string
}

export interface CalendarEvent {
  readonly id: string
  readonly title: string
  readonly serviceId: string
  readonly clientFirstName: string
  readonly clientLastName: string
  readonly startTime: string
  readonly endTime: string
  readonly status: BookingStatus
  readonly displayStatus: DisplayStatus
}

export interface ServiceReview extends Review {
  readonly id: string
}

/** POST /bookings. */
export interface BookingRequest {
  readonly serviceId: string
  readonly startTime: string
  readonly endTime: string
  readonly address: string
  readonly notes: string
  readonly date: string
}

/** GET /bookings/me query. */
export interface BookingQuery {
  readonly as?: "client" | "provider" | "all"
  /** One status, PAID, or several separated by commas. */
  readonly status?: string
  readonly page?: number
  readonly limit?: number
}

export interface BookingPage {
  readonly bookings: ReadonlyArray<Booking>
  readonly results: number
  readonly pagination: Pagination
}
export interface BookingData {
  readonly booking: Booking
}

export interface BillingDetails {
  readonly name: string
  readonly email: string
  readonly address: { readonly line1: string; readonly city: string; readonly postal_code: string; readonly country: string }
}

/** POST /payments/checkout/session: the spec's checkout payload plus the booking and billing details. */
export interface CheckoutRequest {
  readonly bookingId: string
  readonly amountCents: number
  /** Optional: the server derives the destination from the booking. */
  readonly connectedAccountId?: string
  readonly currency: string
  readonly productName: string
  readonly quantity: number
  readonly billingDetails: BillingDetails
}

/** Where the browser pays; with `clientSecret` and `publishableKey` the card form can confirm in place. */
export interface CheckoutAnswer {
  readonly url: string
  readonly sessionId: string
  readonly mode: "authorize" | "save_card"
  readonly clientSecret?: string
  readonly publishableKey?: string
}

export interface ReviewPage {
  readonly reviews: ReadonlyArray<ServiceReview>
  readonly averageRating: number
  readonly pagination: Pagination
}

export type EmailFrequency = "instant" | "daily" | "weekly" | "never"
export interface NotificationPreferences {
  readonly emailNotifications: boolean
  readonly emailFrequency: EmailFrequency
  readonly quietHoursEnabled: boolean
  /** "HH:MM", 24-hour, in timeZone. */
  readonly quietHoursStart: string
  readonly quietHoursEnd: string
  readonly timeZone: string
}
export interface PreferencesData {
  readonly preferences: NotificationPreferences
}
