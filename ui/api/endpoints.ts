// Typed calls, one per endpoint. Screens pass `quiet` for the failures they show inline.

import { currentLanguage } from "../i18n"
import { cached, invalidate, MINUTE } from "./cache"
import { api, apiBlob, type RequestOptions } from "./client"
import { queryString } from "./query"
import type { SlotWindow } from "../booking/slots"
import { store, userAtom } from "../state/session"
import type {
  NotificationPreferences,
  PreferencesData,
  AvatarInfo,
  BookingData,
  DisputeData,
  RescheduleData,
  BookingPage,
  BookingQuery,
  BookingRequest,
  CalendarEvent,
  Availability,
  AvailabilityRequest,
  Slots,
  CheckoutAnswer,
  CheckoutRequest,
  ReviewPage,
  CategoriesData,
  ContactRequest,
  EmailRequest,
  Empty,
  LoginAnswer,
  LoginRequest,
  RegisterRequest,
  ResetPasswordRequest,
  PhotoOrderRequest,
  PhotosData,
  ServiceData,
  ServiceDetailData,
  ServicePage,
  ServiceQuery,
  ServiceRequest,
  ServicesData,
  Session,
  TwoFactorSetup,
  TwoFactorStatus,
  UpdateMeRequest,
  UpdatePasswordRequest,
  UserData,
  ChangeEmailRequest,
  SessionsData,
  DeleteAccountRequest
} from "./contract"
import type {
  AdminApplicationsApi,
  Answer,
  BookingsApi,
  CalendarFeedApi,
  PlacesApi,
  CancellationPolicyApi,
  EarningsApi,
  ProviderApplicationsApi,
  ReceiptsApi,
  StripeConnectApi,
  UsersApi
} from "./contract"

type Quiet = RequestOptions["quiet"]
const post = <T>(path: string, body: unknown, quiet?: Quiet, extra: RequestOptions = {}) =>
  api<T>(path, { method: "POST", body, quiet, ...extra })

export const authApi = {
  register: (body: RegisterRequest, quiet?: Quiet) => post<Empty>("/auth/register", body, quiet, { auth: false }),
  login: (body: LoginRequest, quiet?: Quiet) => post<LoginAnswer>("/auth/login", body, quiet, { auth: false }),
  /** The second step of a login with two-step on: the challenge and a code (or a recovery code). */
  loginTwoFactor: (body: { challenge: string; code?: string; recoveryCode?: string }, quiet?: Quiet) =>
    post<Session>("/auth/login/two-factor", body, quiet, { auth: false }),
  twoFactorStatus: () => api<{ twoFactor: TwoFactorStatus }>("/auth/two-factor"),
  twoFactorSetup: () => post<TwoFactorSetup>("/auth/two-factor/setup", {}, [409]),
  twoFactorEnable: (code: string) => post<{ recoveryCodes: ReadonlyArray<string> }>("/auth/two-factor/enable", { code }, [409, 422, 429]),
  twoFactorDisable: (body: { password: string; code: string }) => post<Empty>("/auth/two-factor/disable", body, [409, 422, 429]),
  logout: () => post<Empty>("/auth/logout", {}, true, { auth: false }),
  /** The startup check has its own 10 s limit (spec section 9). */
  me: (options: RequestOptions = {}) => api<UserData>("/auth/me", options),
  forgotPassword: (body: EmailRequest, quiet?: Quiet) =>
    post<Empty>("/auth/forgot-password", body, quiet, { auth: false, timeoutMs: 15_000 }),
  resetPassword: (token: string, body: ResetPasswordRequest, quiet?: Quiet) =>
    post<Empty>(`/auth/reset-password/${encodeURIComponent(token)}`, body, quiet, { auth: false }),
  updatePassword: (body: UpdatePasswordRequest, quiet?: Quiet) => api<Empty>("/auth/update-password", { method: "PATCH", body, quiet }),
  verifyEmail: (token: string, quiet?: Quiet) => api<Empty>(`/auth/verify-email/${encodeURIComponent(token)}`, { auth: false, quiet }),
  resendVerification: (body: EmailRequest, quiet?: Quiet) => post<Empty>("/auth/resend-verification-public", body, quiet, { auth: false }),
  sessions: (quiet?: Quiet) => api<SessionsData>("/auth/sessions", { quiet }),
  endSession: (id: string, quiet?: Quiet) => api<Empty>(`/auth/sessions/${encodeURIComponent(id)}`, { method: "DELETE", quiet }),
  endOtherSessions: (quiet?: Quiet) => post<Empty>("/auth/sessions/end-others", {}, quiet),
  changeEmail: (body: ChangeEmailRequest, quiet?: Quiet) => post<Empty>("/auth/change-email", body, quiet),
  confirmEmail: (token: string, quiet?: Quiet) => api<UserData>(`/auth/confirm-email/${encodeURIComponent(token)}`, { auth: false, quiet })
}

/** The caller's data export and the deletion of their account (privacy module). */
export const accountApi = {
  requestExport: (quiet?: Quiet) => post<Empty>("/account/export", {}, quiet),
  deleteAccount: (body: DeleteAccountRequest, quiet?: Quiet) => post<Empty>("/account/delete", body, quiet),
  /** The mailed export's file, once: the link's token is the credential (no session needed). */
  downloadExport: (token: string) => apiBlob(`/account/export/${encodeURIComponent(token)}`, { method: "POST", body: {}, auth: false })
}

export const usersApi = {
  me: () => api<UserData>("/users/me"),
  updateMe: (body: UpdateMeRequest, quiet?: Quiet) => api<UserData>("/users/me", { method: "PATCH", body, quiet })
}

export const notificationsApi = {
  preferences: () => api<PreferencesData>("/notifications/preferences"),
  /** Full or partial: the fields sent are changed, the others kept. */
  updatePreferences: (body: Partial<NotificationPreferences>, quiet?: Quiet) =>
    api<PreferencesData>("/notifications/preferences", { method: "PUT", body, quiet })
}

export const contactApi = {
  send: (body: ContactRequest, quiet?: Quiet) => post<Empty>("/contact/send-message", body, quiet, { auth: false })
}

// Cached reads carry the language in their key: category names are localized by the server.
const SERVICES = "services:"
const key = (prefix: string, path: string) => `${prefix}${currentLanguage()}:${path}`

export const catalogueApi = {
  /** Categories change rarely: 10 min (spec section 9). */
  categories: () => {
    const path = "/categories"
    return cached(key("categories:", path), 10 * MINUTE, () => api<CategoriesData>(path, { auth: false }))
  },
  /** The list and search (5 min); the screen shows its own failure. */
  search: (query: ServiceQuery) => {
    const path = `/services${queryString(query)}`
    return cached(key(SERVICES, path), 5 * MINUTE, () => api<ServicePage>(path, { auth: false, quiet: true }))
  },
  /** The best rated or the newest active services (GET /services/popular and /recent), cached like the list. */
  highlights: (kind: "popular" | "recent", limit: number, currency: string) => {
    const path = `/services/${kind}${queryString({ limit, currency })}`
    return cached(key(SERVICES, path), 5 * MINUTE, () => api<ServicesData>(path, { auth: false, quiet: true }))
  },
  /**
   * Always fresh. The token lets the owner see an inactive service (an invalid one is ignored).
   * A background refresh passes quiet: true (no toast every 10 s while the server is away).
   */
  service: (id: string, params: { lat?: number; lng?: number; currency?: string } = {}, quiet: Quiet = [404]) =>
    api<ServiceDetailData>(`/services/${encodeURIComponent(id)}${queryString(params)}`, { quiet }),
  /** A provider's own services, inactive ones included. */
  ofUser: (userId: string) => api<ServicesData>(`/services/user/${encodeURIComponent(userId)}`, { quiet: true }),
  create: async (body: ServiceRequest) => {
    const answer = await api<ServiceData>("/services", { method: "POST", body, quiet: [422] })
    invalidate(SERVICES)
    return answer
  },
  update: async (id: string, body: ServiceRequest) => {
    const answer = await api<ServiceData>(`/services/${encodeURIComponent(id)}`, { method: "PATCH", body, quiet: [422] })
    invalidate(SERVICES)
    return answer
  },
  /** Photos (owner only): each change answers the service's photos in order. */
  addPhoto: async (serviceId: string, file: File) => {
    const form = new FormData()
    form.append("photo", file)
    try {
      return await api<PhotosData>(`/services/${encodeURIComponent(serviceId)}/photos`, {
        method: "POST",
        body: form,
        quiet: [400, 413, 415, 422]
      })
    } finally {
      invalidate(SERVICES)
    }
  },
  removePhoto: async (serviceId: string, photoId: string) => {
    try {
      return await api<PhotosData>(`/services/${encodeURIComponent(serviceId)}/photos/${encodeURIComponent(photoId)}`, { method: "DELETE" })
    } finally {
      invalidate(SERVICES)
    }
  },
  reorderPhotos: async (serviceId: string, body: PhotoOrderRequest) => {
    try {
      return await api<PhotosData>(`/services/${encodeURIComponent(serviceId)}/photos/order`, { method: "PUT", body })
    } finally {
      invalidate(SERVICES)
    }
  },
  /** Delete, activate, deactivate, duplicate: failures go through the global handler. */
  act: async (id: string, action: "delete" | "activate" | "deactivate" | "duplicate") => {
    const path = `/services/${encodeURIComponent(id)}`
    try {
      return action === "delete"
        ? await api<Empty>(path, { method: "DELETE" })
        : await api<ServiceData>(`${path}/${action}`, { method: "POST", body: {} })
    } finally {
      invalidate(SERVICES)
    }
  }
}

export const connectApi = {
  status: (quiet?: Quiet) => api<Answer<typeof StripeConnectApi, "status">>("/users/me/stripe-connect/status", { quiet }),
  onboarding: (country: string, quiet?: Quiet) =>
    post<Answer<typeof StripeConnectApi, "onboarding">>("/users/me/stripe-connect/onboarding", { country }, quiet),
  dashboard: (quiet?: Quiet) => api<Answer<typeof StripeConnectApi, "dashboard">>("/users/me/stripe-connect/dashboard", { quiet })
}

export const profileApi = {
  me: () => api<Answer<typeof UsersApi, "getMe">>("/users/me"),
  update: (body: Record<string, unknown>) =>
    api<Answer<typeof UsersApi, "updateMe">>("/users/me", { method: "PATCH", body, quiet: [400, 422] }),
  public: (id: string) => api<Answer<typeof UsersApi, "publicProfile">>(`/users/public/${encodeURIComponent(id)}`, { quiet: [403, 404] }),
  services: (id: string, currency: string) =>
    api<ServicesData>(`/services/provider/${encodeURIComponent(id)}${queryString({ limit: 100, currency })}`, { quiet: true }),
  uploadAvatar: (file: File) => {
    const form = new FormData()
    form.append("avatar", file)
    return api<AvatarInfo>("/uploads/avatar", { method: "POST", body: form, quiet: [400, 413, 415, 422] })
  },
  deleteAvatar: () => api<AvatarInfo>("/uploads/avatar", { method: "DELETE" }),
  favorites: (page: number) =>
    api<Answer<typeof UsersApi, "myFavorites">>(`/users/me/favorites${queryString({ page, limit: 100 })}`, { quiet: true }),
  favorite: (favoritedId: string) => post<Answer<typeof UsersApi, "addFavorite">>("/users/favorites", { favoritedId }),
  unfavorite: (id: string) => api<Empty>(`/users/favorites/${encodeURIComponent(id)}`, { method: "DELETE", quiet: [404] })
}

const FORM_QUIET = [400, 409, 413, 415, 422]
export const applicationsApi = {
  mine: () => api<Answer<typeof ProviderApplicationsApi, "myApplication">>("/provider-applications/my-application"),
  submit: (form: FormData) =>
    api<Answer<typeof ProviderApplicationsApi, "submit">>("/provider-applications/submit", {
      method: "POST",
      body: form,
      quiet: [...FORM_QUIET, 403]
    }),
  resubmit: (form: FormData) =>
    api<Answer<typeof ProviderApplicationsApi, "resubmit">>("/provider-applications/my-application", {
      method: "PUT",
      body: form,
      quiet: [...FORM_QUIET, 403, 404]
    }),
  /** Sends again the one document an admin asked for (the file in the part named by its slot). */
  replaceDocument: (slot: string, form: FormData) =>
    api<Answer<typeof ProviderApplicationsApi, "replaceDocument">>(
      `/provider-applications/my-application/documents/${encodeURIComponent(slot)}`,
      { method: "PUT", body: form, quiet: [...FORM_QUIET, 404] }
    )
}

export const adminApplicationsApi = {
  list: (query: { search?: string; status?: string; page?: number; limit?: number }) =>
    api<Answer<typeof AdminApplicationsApi, "list">>(`/admin/applications${queryString(query)}`, { quiet: [422] }),
  get: (id: string) => api<Answer<typeof AdminApplicationsApi, "get">>(`/admin/applications/${encodeURIComponent(id)}`, { quiet: [404] }),
  approve: (id: string) =>
    api<Answer<typeof ProviderApplicationsApi, "approve">>(`/provider-applications/${encodeURIComponent(id)}/approve`, {
      method: "PATCH",
      body: {},
      quiet: [409]
    }),
  reject: (id: string, rejectionReason: string) =>
    api<Answer<typeof ProviderApplicationsApi, "reject">>(`/provider-applications/${encodeURIComponent(id)}/reject`, {
      method: "PATCH",
      body: { rejectionReason },
      quiet: [409, 422]
    }),
  verify: (id: string, isVerified: boolean | null, notes: string) =>
    api<Answer<typeof AdminApplicationsApi, "verifyDocument">>(`/admin/documents/${encodeURIComponent(id)}/verify`, {
      method: "PATCH",
      body: { isVerified, notes },
      quiet: [422]
    }),
  requestReplacement: (id: string, reason: string) =>
    api<Answer<typeof AdminApplicationsApi, "requestReplacement">>(`/admin/documents/${encodeURIComponent(id)}/request-replacement`, {
      method: "PATCH",
      body: { reason },
      quiet: [409, 422]
    }),
  file: (id: string) => apiBlob(`/admin/documents/${encodeURIComponent(id)}/file`)
}

// ---- Bookings, checkout and reviews ----

// Bookings stay fresh 60 s (spec section 9); screens refresh them every 10 s with `fresh`, and every
// write drops them, so a change shows at once.
const BOOKINGS = "bookings:"
/** Failures a booking screen shows in its own alert; a 401 still gets the global handling. */
const BOOKING_SHOWN = [0, 400, 403, 404, 409, 422, 429, 500, 502, 503]
/** Uploads also show a file too large (413) or of a refused type (415) inline. */
const BOOKING_SHOWN_UPLOAD = [...BOOKING_SHOWN, 413, 415]
/** Booking reads are the caller's own: the key carries who asks, so another login never sees them. */
const bookingKey = (path: string) => key(`${BOOKINGS}${store.get(userAtom)?.id ?? "visitor"}:`, path)
const bookingPath = (id: string) => `/bookings/${encodeURIComponent(id)}`

// Free slots change with every booking: kept a minute, and dropped by every booking write.
const SLOTS = "slots:"

const write = async <T>(call: () => Promise<T>) => {
  try {
    return await call()
  } finally {
    invalidate(BOOKINGS)
    invalidate(SLOTS)
  }
}

/** Places (issue 14): suggestions as a place is typed (kept 10 minutes), and the place of a position. */
export const placesApi = {
  suggest: (text: string) =>
    cached(`places:${text.trim().toLowerCase()}`, 10 * MINUTE, () =>
      api<Answer<typeof PlacesApi, "suggest">>(`/places${queryString({ q: text.trim(), limit: 8 })}`, { auth: false, quiet: true })
    ),
  reverse: (position: { lat: number; lng: number }) =>
    api<Answer<typeof PlacesApi, "reverse">>(`/places/reverse${queryString(position)}`, { auth: false, quiet: true })
}

/** Providers' availability (issue 12) and services' free slots. */
export const availabilityApi = {
  of: (providerId: string, quiet?: Quiet) =>
    api<Availability>(`/providers/${encodeURIComponent(providerId)}/availability`, { auth: false, quiet }),
  replace: (body: AvailabilityRequest, quiet?: Quiet) => api<Availability>("/providers/me/availability", { method: "PUT", body, quiet }),
  slots: (serviceId: string, query: { from: string; to: string; duration: number }, quiet?: Quiet) =>
    api<Slots>(`/services/${encodeURIComponent(serviceId)}/slots${queryString(query)}`, { auth: false, quiet })
}

export const bookingsApi = {
  /** The caller's bookings; `fresh` is the periodic refresh (quiet: the screen keeps its last answer). */
  mine: (query: BookingQuery, fresh = false) => {
    const path = `/bookings/me${queryString(query)}`
    return cached(bookingKey(path), MINUTE, () => api<BookingPage>(path, { quiet: fresh ? true : BOOKING_SHOWN }), fresh)
  },
  /** The caller's open booking of a service (the in-progress banner), or null. */
  forService: (serviceId: string, fresh = false) => {
    const path = `/bookings/me/service/${encodeURIComponent(serviceId)}`
    return cached(bookingKey(path), MINUTE, () => api<Answer<typeof BookingsApi, "activeForService">>(path, { quiet: true }), fresh)
  },
  get: (id: string) => api<BookingData>(bookingPath(id), { quiet: BOOKING_SHOWN }),
  /** Where the booking can move (the reschedule dialog's picker): its service's free slots, itself left out. */
  slots: (id: string, query: { from: string; to: string; duration: number }, quiet?: Quiet) =>
    api<Slots>(`${bookingPath(id)}/slots${queryString(query)}`, { quiet }),
  calendar: (range: { from: string; to: string }, fresh = false) =>
    api<ReadonlyArray<CalendarEvent>>(`/bookings/provider/calendar${queryString(range)}`, { quiet: fresh ? true : BOOKING_SHOWN }),
  create: (body: BookingRequest) =>
    write(() => api<Answer<typeof BookingsApi, "create">>("/bookings", { method: "POST", body, quiet: BOOKING_SHOWN })),
  confirm: (id: string) => write(() => post<BookingData>(`${bookingPath(id)}/confirm`, {}, BOOKING_SHOWN)),
  reject: (id: string, reason: string) => write(() => post<BookingData>(`${bookingPath(id)}/reject`, { reason }, BOOKING_SHOWN)),
  markRendered: (id: string) => write(() => post<BookingData>(`${bookingPath(id)}/mark-rendered`, {}, BOOKING_SHOWN)),
  confirmCompletion: (id: string, rating: number, comment: string) =>
    write(async () => {
      const answer = await post<BookingData>(`${bookingPath(id)}/confirm-completion`, { rating, comment }, BOOKING_SHOWN)
      // The review shows on the service page and changes its rating.
      invalidate(SERVICES)
      return answer
    }),
  /**
   * Cancel is a delete call (the booking is kept with its history). `acceptedFee`: the fee the dialog
   * showed (minor units); a higher one answers 409 CANCELLATION_FEE_CHANGED and cancels nothing.
   */
  cancel: (id: string, acceptedFee: number, reason?: string) =>
    write(() => api<BookingData>(`${bookingPath(id)}${queryString({ reason, acceptedFee })}`, { method: "DELETE", quiet: BOOKING_SHOWN })),
  /** Drops the cached booking reads (after a payment made elsewhere). */
  /** Proposes a new time; the other party accepts or declines it. */
  reschedule: (id: string, body: { startTime: string; endTime: string }) =>
    write(() => post<RescheduleData>(`${bookingPath(id)}/reschedule`, body, BOOKING_SHOWN)),
  answerReschedule: (id: string, proposalId: string, answer: "accept" | "decline") =>
    write(() => post<BookingData>(`${bookingPath(id)}/reschedule/${encodeURIComponent(proposalId)}/${answer}`, {}, BOOKING_SHOWN)),
  /** The client reports a problem after "service rendered" (multipart: reason, description, file1..file3). */
  reportProblem: (id: string, form: FormData) =>
    write(() => api<BookingData>(`${bookingPath(id)}/dispute`, { method: "POST", body: form, quiet: BOOKING_SHOWN_UPLOAD })),
  /** The dispute's thread, for the parties and administrators. */
  dispute: (id: string) => api<DisputeData>(`${bookingPath(id)}/dispute`, { quiet: BOOKING_SHOWN }),
  /** A message (body and/or file1..file3) added to the open dispute. */
  addDisputeMessage: (id: string, form: FormData) =>
    write(() => api<DisputeData>(`${bookingPath(id)}/dispute/messages`, { method: "POST", body: form, quiet: BOOKING_SHOWN_UPLOAD })),
  /** A dispute file (its `url` from the thread), with the caller's session. */
  disputeFile: (url: string) => apiBlob(url.replace(/^\/api/, "")),
  refresh: () => invalidate(BOOKINGS)
}

/**
 * Whose free slots a picker shows: a service's (the booking form, the service page) or a booking's
 * (the reschedule dialog: the service's slots with the booking itself left out).
 */
export type SlotSource = { readonly serviceId: string } | { readonly bookingId: string }
const sourceKey = (source: SlotSource) => ("serviceId" in source ? source.serviceId : `booking:${source.bookingId}`)

export const slotsApi = {
  /** The free start times of a window for a duration; the screens show a failure themselves. */
  list: (source: SlotSource, window: SlotWindow, duration: number) =>
    "serviceId" in source
      ? availabilityApi.slots(source.serviceId, { ...window, duration }, true)
      : bookingsApi.slots(source.bookingId, { ...window, duration }, true),
  /** One month of the booking form's picker (`month` names it, with the viewer's zone), cached a minute. */
  month: (source: SlotSource, month: string, window: SlotWindow, duration: number, fresh = false) =>
    cached(
      `${SLOTS}${sourceKey(source)}:${duration}:${month}`,
      MINUTE,
      () => slotsApi.list(source, window, duration).then(({ data }) => data),
      fresh
    ),
  /**
   * The next free slots (ui/booking/slots.ts `nextSlotWindows`: 60 days): the near window first, the
   * far one only when the near holds fewer than `enough`; cached a minute (the page and the form share it).
   */
  next: (source: SlotSource, duration: number, [near, far]: readonly [SlotWindow, SlotWindow], enough: number, fresh = false) =>
    cached(
      `${SLOTS}${sourceKey(source)}:${duration}:next`,
      MINUTE,
      async () => {
        const { data } = await slotsApi.list(source, near, duration)
        if (data.slots.length >= enough) return data
        const rest = await slotsApi.list(source, far, duration)
        return { ...data, slots: [...data.slots, ...rest.data.slots] }
      },
      fresh
    ),
  /** Drops the cached slots (after a booking was refused for a slot just taken). */
  refresh: () => invalidate(SLOTS)
}

export const checkoutApi = {
  /** A hosted checkout (or, with Stripe, a client secret for the card form) for a booking. */
  createSession: (body: CheckoutRequest) => write(() => post<CheckoutAnswer>("/payments/checkout/session", body, BOOKING_SHOWN))
}

export const reviewsApi = {
  ofService: (serviceId: string, page = 1, limit = 10, quiet: Quiet = true) =>
    api<ReviewPage>(`/services/${encodeURIComponent(serviceId)}/reviews${queryString({ page, limit })}`, { auth: false, quiet })
}

/** The cancellation policy in force (configuration): stated before booking, on the service page and in the FAQ. */
export const cancellationPolicyApi = {
  get: () =>
    cached(
      "cancellation-policy",
      10 * MINUTE,
      async () => (await api<Answer<typeof CancellationPolicyApi, "get">>("/cancellation-policy", { auth: false, quiet: true })).data
    )
}

/** The provider's private calendar feed (the URL to subscribe to from a calendar application). */
export const calendarFeedApi = {
  /** The URL, made on the first call. */
  mine: async () => (await api<Answer<typeof CalendarFeedApi, "mine">>("/providers/me/calendar-feed", { quiet: true })).data,
  /** A new URL: the previous one stops working. */
  regenerate: async () =>
    (
      await api<Answer<typeof CalendarFeedApi, "regenerate">>("/providers/me/calendar-feed/regenerate", {
        method: "POST",
        body: {},
        quiet: true
      })
    ).data
}

/** A client's receipt of a booking (issue 13): the page's JSON, and the PDF fetched with the bearer token. */
export const receiptsApi = {
  get: (id: string) => api<Answer<typeof ReceiptsApi, "receipt">>(`${bookingPath(id)}/receipt`, { quiet: [404, 409] }),
  /** The booking's payment timeline (its client, its provider, administrators). */
  payments: (id: string) => api<Answer<typeof ReceiptsApi, "payments">>(`${bookingPath(id)}/payments`),
  pdf: (id: string) => apiBlob(`${bookingPath(id)}/receipt.pdf`)
}

/** A provider's earnings: a page of lines with the totals, and the whole list as CSV. */
export const earningsApi = {
  mine: (query: { page?: number; limit?: number }) =>
    api<Answer<typeof EarningsApi, "mine">>(`/providers/me/earnings${queryString(query)}`),
  csv: () => apiBlob("/providers/me/earnings.csv")
}
