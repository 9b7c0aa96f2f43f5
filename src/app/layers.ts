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
import { PaymentAccountRepositoryLive, PaymentAccountsLive, PaymentsMemoryAdapters } from "../modules/payments"
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
  PaymentAccountRepositoryLive,
  SqlTransactional
)

const CryptoLive = Layer.mergeAll(ScryptPasswordHasher, NodeSecrets, JwtAccessTokens)

/** The application services over whatever adapters are given. */
export const ApplicationServices = Layer.mergeAll(IdentityLive, PaymentAccountsLive).pipe(Layer.provideMerge(NotificationsLive))

/** Everything the server and the CLI run on, over a given SqlClient layer. */
export const domainOn = <E, R>(database: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  ApplicationServices.pipe(
    Layer.provideMerge(Layer.mergeAll(PostgresAdapters, CryptoLive, RateLimiterMemoryLive)),
    Layer.provideMerge(database)
  )

/** The production/embedded stack: Postgres (or PGlite when DATABASE_URL is unset). */
export const LiveDomain = (options: { readonly attachToRunning: boolean }) => domainOn(DatabaseLive(options))

/** The domain on in-memory adapters: no database, a fast hasher (tests, experiments). */
export const InMemoryDomain = ApplicationServices.pipe(
  Layer.provideMerge(
    Layer.mergeAll(IdentityMemoryAdapters, InMemoryNotificationsAdapters, PaymentsMemoryAdapters, PlainTestHasher, NodeSecrets, JwtAccessTokens, NoTransaction, RateLimiterMemoryLive)
  )
)
