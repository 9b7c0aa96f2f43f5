import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../platform/config"
import { DatabaseLive } from "../platform/database"
import { RateLimiterMemoryLive } from "../platform/rate-limit"
import { NoTransaction, SqlTransactional } from "../platform/transaction"
import {
  IdentityLive,
  IdentityMemoryAdapters,
  IdentityPostgresAdapters,
  JwtAccessTokens,
  NodeSecrets,
  PlainTestHasher,
  ProfileMemoryAdapters,
  ProfilePostgresAdapters,
  ProfilesLive,
  ScryptPasswordHasher
} from "../modules/identity"
import {
  ContactRepositoryLive,
  InMemoryNotificationsAdapters,
  type Mailer,
  NotificationsLive,
  OutboxMailerLive,
  OutboxReaderLive,
  SmtpMailerLive
} from "../modules/notifications"
import { PaymentsMemoryAdapters, PaymentsPostgresAdapters, PaymentsServicesLive } from "../modules/payments"
import { CatalogueLive, CatalogueMemoryAdapters, CataloguePostgresAdapters } from "../modules/catalogue"
import {
  OnboardingMemoryAdapters,
  OnboardingPostgresAdapters,
  PayoutAccountLookupFromPayments,
  ProviderApplicationsLive
} from "../modules/onboarding"
import { InMemoryStorage, LocalDiskStorageLive } from "../platform/storage"
import type { SqlClient } from "@effect/sql"

/** Mail: SMTP when SMTP_URL is set, otherwise the database outbox shown at /dev/mail. */
const MailerLive: Layer.Layer<Mailer, never, SqlClient.SqlClient | AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.smtpUrl, {
      onNone: (): Layer.Layer<Mailer, never, SqlClient.SqlClient | AppConfig> => OutboxMailerLive,
      onSome: SmtpMailerLive
    })
  )
)

/** Postgres-backed adapters of every module (given a SqlClient). */
export const PostgresAdapters = Layer.mergeAll(
  IdentityPostgresAdapters,
  ContactRepositoryLive,
  OutboxReaderLive,
  MailerLive,
  PaymentsPostgresAdapters,
  CataloguePostgresAdapters,
  ProfilePostgresAdapters,
  OnboardingPostgresAdapters,
  LocalDiskStorageLive,
  SqlTransactional
)

const CryptoLive = Layer.mergeAll(ScryptPasswordHasher, NodeSecrets, JwtAccessTokens)

/** The application services over whatever adapters are given. */
export const ApplicationServices = Layer.mergeAll(IdentityLive, PaymentsServicesLive).pipe(
  Layer.provideMerge(NotificationsLive),
  // The catalogue asks payments whether a provider may publish.
  (services) => CatalogueLive.pipe(Layer.provideMerge(services))
)

/**
 * Every service: the above plus profiles and provider onboarding, which also need the profile,
 * application and file stores (profiles show a provider's payout state, read from payments).
 */
export const MarketplaceServices = Layer.mergeAll(ProfilesLive, ProviderApplicationsLive).pipe(
  Layer.provide(PayoutAccountLookupFromPayments),
  Layer.provideMerge(ApplicationServices)
)

/** Everything the server and the CLI run on, over a given SqlClient layer. */
export const domainOn = <E, R>(database: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  MarketplaceServices.pipe(
    Layer.provideMerge(Layer.mergeAll(PostgresAdapters, CryptoLive, RateLimiterMemoryLive)),
    Layer.provideMerge(database)
  )

/** The production/embedded stack: Postgres (or PGlite when DATABASE_URL is unset). */
export const LiveDomain = (options: { readonly attachToRunning: boolean }) => domainOn(DatabaseLive(options))

/** The domain on in-memory adapters: no database, a fast hasher (tests, experiments). */
export const InMemoryDomain = MarketplaceServices.pipe(
  Layer.provideMerge(
    Layer.mergeAll(IdentityMemoryAdapters, InMemoryNotificationsAdapters, PaymentsMemoryAdapters, CatalogueMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)), ProfileMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)), OnboardingMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters)), InMemoryStorage, PlainTestHasher, NodeSecrets, JwtAccessTokens, NoTransaction, RateLimiterMemoryLive)
  )
)
