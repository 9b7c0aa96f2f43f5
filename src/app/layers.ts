import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../platform/config"
import { DatabaseLive } from "../platform/database"
import { RateLimiterMemoryLive } from "../platform/rate-limit"
import { NoTransaction, SqlTransactional } from "../platform/transaction"
import {
  AccountDirectoryFromUsers,
  IdentityLive,
  InProcessAccountEvents,
  ProfilesLive,
  TwoFactorAttemptsLive,
  TwoFactorLive
} from "../modules/identity"
import { IdentityMemoryAdapters, PlainTestHasher } from "../modules/identity/adapters/memory"
import { IdentityPostgresAdapters } from "../modules/identity/adapters/postgres"
import { JwtAccessTokens, NodeSecrets, ScryptPasswordHasher } from "../modules/identity/adapters/crypto"
import { OtpAuthCodes } from "../modules/identity/adapters/totp"
import { ProfileMemoryAdapters } from "../modules/identity/profile/adapters/memory"
import { ProfilePostgresAdapters } from "../modules/identity/profile/adapters/postgres"
import {
  DEFERRED_MAIL_QUEUE,
  DIGEST_QUEUE,
  type MailTransport,
  NotificationSettingsLive,
  NotificationsLive,
  PreferenceAwareMailerLive
} from "../modules/notifications"
import {
  ContactRepositoryLive,
  DigestRepositoryLive,
  OutboxReaderLive,
  OutboxTransportLive,
  PreferenceRepositoryLive
} from "../modules/notifications/adapters/postgres"
import { HmacUnsubscribeTokensLive } from "../modules/notifications/adapters/tokens"
import { HmacCalendarFeedTokensLive } from "../modules/booking/adapters/feed-tokens"
import { InMemoryNotificationsAdapters, InMemoryPreferenceAdapters } from "../modules/notifications/adapters/memory"
import { MAIL_QUEUE, QueuedTransportLive } from "../modules/notifications/adapters/smtp"
import { PaymentWebhooksLive } from "../modules/payments"
import { PaymentsMemoryAdapters } from "../modules/payments/adapters/memory"
import { PaymentsPostgresAdapters } from "../modules/payments/adapters/postgres"
import { PaymentsServicesLive } from "../modules/payments/live"
import { SANDBOX_DELIVERY_QUEUE } from "../modules/payments/adapters/sandbox-events"
import { SANDBOX_REFUND_FAILURE_QUEUE } from "../modules/payments/adapters/charges-sandbox"
import { AvailabilityLive, BookingRemindersLive, BookingsLive, BookingStatementsLive, CalendarFeedsLive, Queues } from "../modules/booking"
import { BookingMemoryAdapters } from "../modules/booking/adapters/memory"
import { BookingPostgresAdapters } from "../modules/booking/adapters/postgres"
import { ChargeEventSinkLive, ServiceReviewsLive } from "../modules/booking/bridges"
import { PairBlocksFromMessaging } from "../modules/booking/adapters/pair-blocks"
import { InMemoryJobQueueLive, type JobQueue, PgBossJobQueue } from "../platform/jobs"
import { CatalogueLive } from "../modules/catalogue"
import { EmbeddedGazetteerLive } from "../modules/catalogue/places/adapters/embedded"
import { NominatimGazetteer } from "../modules/catalogue/places/adapters/nominatim"
import type { Gazetteer } from "../modules/catalogue/places/ports"
import { CatalogueMemoryAdapters } from "../modules/catalogue/adapters/memory"
import { CataloguePostgresAdapters } from "../modules/catalogue/adapters/postgres"
import { EcbRateFeed } from "../modules/catalogue/rates/adapters/ecb"
import { ExchangeRateRepositoryMemory } from "../modules/catalogue/rates/adapters/memory"
import { ExchangeRateRepositoryLive } from "../modules/catalogue/rates/adapters/postgres"
import { ExchangeRatesLive } from "../modules/catalogue/rates/service"
import { ProviderApplicationsLive } from "../modules/onboarding"
import { OnboardingMemoryAdapters } from "../modules/onboarding/adapters/memory"
import { OnboardingPostgresAdapters } from "../modules/onboarding/adapters/postgres"
import { PayoutAccountLookupFromPayments } from "../modules/onboarding/adapters/payout-lookup"
import { MessagingLive, ModerationLive } from "../modules/messaging"
import { ConversationRepositoryLive } from "../modules/messaging/adapters/postgres"
import { ConversationRepositoryMemory } from "../modules/messaging/adapters/memory"
import { InProcessConversationEvents } from "../modules/messaging/adapters/relay"
import { MessageRateLimiterMemory, ReportRateLimiterMemory } from "../modules/messaging/adapters/rate-limit"
import { PairBookingsLive, SafetyRepositoryLive } from "../modules/messaging/adapters/safety-postgres"
import { PairBookingsMemory, SafetyRepositoryMemory } from "../modules/messaging/adapters/safety-memory"
import { ServiceTopicsFromCatalogue } from "../modules/messaging/adapters/service-topics"
import { AdministrationLive } from "../modules/administration"
import { AdministrationMemoryAdapters } from "../modules/administration/adapters/memory"
import { AdministrationPostgresAdapters } from "../modules/administration/adapters/postgres"
import { InMemoryStorage, LocalDiskStorageLive } from "../platform/storage"
import { AuditTrailMemory } from "../platform/audit/memory"
import { AuditTrailPostgres } from "../platform/audit/postgres"
import type { SqlClient } from "@effect/sql"
import { EXPORT_QUEUE, PrivacyLive } from "../modules/privacy"
import { PrivacyPostgresAdapters } from "../modules/privacy/adapters/postgres"

// Queues are created at start: a job sent inside a transaction cannot create its queue.
const JobQueueLive = PgBossJobQueue({
  queues: [
    ...Object.values(Queues),
    MAIL_QUEUE,
    DEFERRED_MAIL_QUEUE,
    DIGEST_QUEUE,
    SANDBOX_DELIVERY_QUEUE,
    SANDBOX_REFUND_FAILURE_QUEUE,
    EXPORT_QUEUE
  ]
})

/**
 * Mail transport: with SMTP_URL, deliveries queued in the sender's transaction for the server's SMTP
 * worker; otherwise the database outbox shown at /dev/mail. (Modules send through notifications'
 * Mailer, which applies the recipients' preferences before this.)
 */
const MailTransportLive: Layer.Layer<MailTransport, never, SqlClient.SqlClient | AppConfig | JobQueue> = Layer.unwrapEffect(
  Effect.map(
    AppConfig,
    (config): Layer.Layer<MailTransport, never, SqlClient.SqlClient | JobQueue> =>
      Option.isSome(config.smtpUrl) ? QueuedTransportLive : OutboxTransportLive
  )
)

/** Places: a Nominatim-compatible service with GEOCODER_URL, otherwise the embedded gazetteer (offline). */
const GazetteerLive: Layer.Layer<Gazetteer, never, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.geocoderUrl, { onNone: () => EmbeddedGazetteerLive, onSome: (baseUrl) => NominatimGazetteer({ baseUrl }) })
  )
)

/** Exchange rates: with ECB_RATES_URL, the ECB's daily file feeds them (a daily job); otherwise no feed (offline). */
const RateFeedLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => Option.match(config.ecbRatesUrl, { onNone: () => Layer.empty, onSome: EcbRateFeed }))
)

/** Postgres-backed adapters of every module (given a SqlClient). */
export const PostgresAdapters = Layer.mergeAll(
  IdentityPostgresAdapters,
  ContactRepositoryLive,
  OutboxReaderLive,
  MailTransportLive.pipe(Layer.provide(JobQueueLive)),
  PreferenceRepositoryLive,
  DigestRepositoryLive,
  PaymentsPostgresAdapters,
  CataloguePostgresAdapters,
  ExchangeRateRepositoryLive,
  ProfilePostgresAdapters,
  OnboardingPostgresAdapters,
  BookingPostgresAdapters,
  ConversationRepositoryLive,
  SafetyRepositoryLive,
  PairBookingsLive,
  AdministrationPostgresAdapters,
  LocalDiskStorageLive,
  SqlTransactional,
  AuditTrailPostgres,
  JobQueueLive
)

const CryptoLive = Layer.mergeAll(
  ScryptPasswordHasher,
  NodeSecrets,
  JwtAccessTokens,
  HmacUnsubscribeTokensLive,
  HmacCalendarFeedTokensLive,
  OtpAuthCodes,
  TwoFactorAttemptsLive
)

/** Mail composition, preferences and digests; its Mailer (preferences applied) is what every module sends through. */
const NotificationServices = Layer.merge(NotificationsLive, NotificationSettingsLive).pipe(Layer.provideMerge(PreferenceAwareMailerLive))

/** The application services over whatever adapters are given. */
export const ApplicationServices = Layer.mergeAll(
  // Identity and two-step login both end sessions, announced on the same account events.
  Layer.merge(IdentityLive, TwoFactorLive).pipe(Layer.provideMerge(InProcessAccountEvents)),
  PaymentsServicesLive
).pipe(
  Layer.provideMerge(NotificationServices),
  // The catalogue asks payments whether a provider may publish, and bookings for a service's reviews.
  // Searches compare prices in euros through the exchange rates (fed daily by the ECB when configured).
  (services) =>
    Layer.merge(CatalogueLive, ServiceReviewsLive).pipe(
      Layer.provideMerge(GazetteerLive),
      Layer.provideMerge(ExchangeRatesLive.pipe(Layer.provideMerge(RateFeedLive))),
      Layer.provideMerge(services)
    ),
  // Bookings book catalogue services, within their providers' availability, and pay through payments' gateway.
  // Reminders and calendar feeds read the bookings and mail through notifications; receipts and
  // earnings read the bookings' payment records. Messaging's moderation says who blocked whom (one
  // instance: layers are shared by reference with MarketplaceServices').
  (services) =>
    Layer.mergeAll(BookingsLive, BookingRemindersLive, CalendarFeedsLive, BookingStatementsLive).pipe(
      Layer.provideMerge(AvailabilityLive),
      Layer.provideMerge(PairBlocksFromMessaging.pipe(Layer.provide(ModerationLive), Layer.provide(ReportRateLimiterMemory))),
      Layer.provideMerge(services)
    ),
  // The webhook hands charge events to bookings.
  (services) => PaymentWebhooksLive.pipe(Layer.provide(ChargeEventSinkLive), Layer.provideMerge(services))
)

/**
 * Every service: the above plus profiles and provider onboarding, which also need the profile,
 * application and file stores (profiles show a provider's payout state, read from payments).
 */
export const MarketplaceServices = Layer.mergeAll(ProfilesLive, ProviderApplicationsLive).pipe(
  Layer.provide(PayoutAccountLookupFromPayments),
  Layer.provideMerge(ApplicationServices),
  // Messaging names services from the catalogue and announces its events in process (the real-time
  // server, built later by src/app/server.ts, listens on the feed).
  (services) =>
    Layer.merge(MessagingLive, ModerationLive).pipe(
      Layer.provideMerge(
        Layer.mergeAll(InProcessConversationEvents, MessageRateLimiterMemory, ReportRateLimiterMemory, ServiceTopicsFromCatalogue)
      ),
      Layer.provideMerge(services)
    ),
  // The back-office acts through identity, bookings, the catalogue and payments.
  (services) => AdministrationLive.pipe(Layer.provideMerge(services))
)

/**
 * Everything the server and the CLI run on, over a given SqlClient layer. Privacy (data export, account
 * deletion) runs on the database only: it reads and erases one person's rows across every module's tables
 * in one transaction, which the in-memory adapters have no equivalent of.
 */
export const domainOn = <E, R>(database: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  PrivacyLive.pipe(
    Layer.provideMerge(MarketplaceServices),
    Layer.provideMerge(Layer.mergeAll(PostgresAdapters, PrivacyPostgresAdapters, CryptoLive, RateLimiterMemoryLive)),
    Layer.provideMerge(database)
  )

/** The production/embedded stack: Postgres (or PGlite when DATABASE_URL is unset). */
export const LiveDomain = (options: { readonly attachToRunning: boolean }) => domainOn(DatabaseLive(options))

/** Every module's in-memory adapter, a fast hasher, no transactions: the domain without a database. */
export const InMemoryAdapters = Layer.mergeAll(
  IdentityMemoryAdapters,
  InMemoryNotificationsAdapters,
  InMemoryPreferenceAdapters.pipe(Layer.provide(AccountDirectoryFromUsers), Layer.provide(IdentityMemoryAdapters)),
  PaymentsMemoryAdapters,
  CatalogueMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)),
  ProfileMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)),
  OnboardingMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)),
  BookingMemoryAdapters.pipe(Layer.provideMerge(CatalogueMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)))),
  SafetyRepositoryMemory.pipe(Layer.provideMerge(ConversationRepositoryMemory), Layer.provideMerge(IdentityMemoryAdapters)),
  PairBookingsMemory,
  AdministrationMemoryAdapters,
  InMemoryJobQueueLive,
  InMemoryStorage,
  PlainTestHasher,
  NodeSecrets,
  OtpAuthCodes,
  TwoFactorAttemptsLive,
  JwtAccessTokens,
  HmacUnsubscribeTokensLive,
  HmacCalendarFeedTokensLive,
  NoTransaction,
  AuditTrailMemory,
  ExchangeRateRepositoryMemory,
  RateLimiterMemoryLive
)

/** The domain on in-memory adapters (tests, experiments). */
export const InMemoryDomain = MarketplaceServices.pipe(Layer.provideMerge(InMemoryAdapters))
