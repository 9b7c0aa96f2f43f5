import { Config, ConfigError, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { isIP as netIsIP } from "node:net"

const isIP = (address: string) => netIsIP(address) !== 0

/** The brand's name when SITE_NAME is unset (docs/design.md). */
export const DEFAULT_SITE_NAME = "Proxima"

/**
 * The sender when MAIL_FROM is unset: the brand's name, quoted when it holds a character that
 * addresses reserve (RFC 5322), so "Atelier, Montréal" stays one name and not two addresses.
 */
export const defaultMailFrom = (siteName: string) => {
  const name = /[()<>[\]:;@\\,."]/.test(siteName) ? `"${siteName.replace(/["\\]/g, "\\$&")}"` : siteName
  return `${name} <no-reply@marketplace.local>`
}

/** Every setting the process reads, read once at start (documented in docs/operations.md). */
export interface AppConfigShape {
  readonly port: number
  readonly host: string
  /** Public origin used in links sent by mail and redirects. */
  readonly publicUrl: string
  /** PostgreSQL URL; when absent, the embedded PGlite database under `dataDir` is used. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly databasePoolSize: number
  readonly dataDir: string
  readonly jwtSecret: Option.Option<Redacted.Redacted>
  readonly accessTokenTtlSeconds: number
  readonly refreshTokenTtlDays: number
  readonly smtpUrl: Option.Option<Redacted.Redacted>
  /** MAIL_FROM; unset, the brand's name at no-reply@marketplace.local (defaultMailFrom). */
  readonly mailFrom: string
  readonly supportEmail: string
  /**
   * The brand's name (SITE_NAME): the header, the document title, the share tags and images, the
   * mails' signature and default sender, the receipts' issuer, the authenticator apps' issuer.
   */
  readonly siteName: string
  readonly logLevel: string
  /** Requests per window allowed on the sensitive auth endpoints, per client address. */
  readonly authRateLimit: number
  readonly authRateWindowSeconds: number
  /** ADMIN_TWO_FACTOR_REQUIRED: an admin without two-step login must enrol before anything else (403 TWO_FACTOR_REQUIRED). */
  readonly adminTwoFactorRequired: boolean
  /** Messages one user may send per window (REST and real-time together). */
  readonly messageRateLimit: number
  readonly messageRateWindowSeconds: number
  readonly seedDemoData: boolean
  /** Which connected-accounts gateway runs: Stripe's API, or the local sandbox (see resolvePaymentsMode). */
  readonly paymentsMode: PaymentsMode
  readonly stripeSecretKey: Option.Option<Redacted.Redacted>
  /** Signing secret of webhook events; in sandbox mode a generated one is used when unset. */
  readonly stripeWebhookSecret: Option.Option<Redacted.Redacted>
  /** Signing secret of the connected-accounts webhook endpoint (Stripe gives it its own); generated in sandbox mode. */
  readonly stripeConnectWebhookSecret: Option.Option<Redacted.Redacted>
  /** Origin of the Stripe API (tests point it at a local fake), e.g. `http://127.0.0.1:12111`. */
  readonly stripeApiBase: Option.Option<string>
  /** With Stripe, lets the UI confirm the card in place with Stripe Elements instead of the hosted checkout. */
  readonly stripePublishableKey: Option.Option<string>
  /**
   * The platform's Stripe account country (STRIPE_PLATFORM_COUNTRY, ISO 3166-1 alpha-2, CA by default):
   * a charge for a provider in another region settles on the provider's account (`on_behalf_of`).
   */
  readonly stripePlatformCountry: string
  /** A Nominatim-compatible geocoding service for places (issue 14); the embedded gazetteer when unset. */
  readonly geocoderUrl: Option.Option<string>
  /** The ECB daily rates file (eurofxref-daily.xml) to fetch every day; unset: no fetch, the stored rates stay. */
  readonly ecbRatesUrl: Option.Option<string>
  /** Days a rejected provider application waits before it may be resubmitted. */
  readonly applicationCooldownDays: number
  /** Rejections after which a provider application is finally refused (recorded on each new application). */
  readonly applicationMaxAttempts: number
  /** A client cancels a confirmed booking free of charge until this many hours before its start (issue 13). */
  readonly cancellationFreeHours: number
  /** Later, this percentage of the total is captured from the hold as a late-cancellation fee (0 to 100). */
  readonly cancellationFeePercent: number
  /** How socket.io reaches the other server processes (see resolveRealtimeAdapter). */
  readonly realtimeAdapter: RealtimeAdapterKind
  /** Whether the local outbox page /dev/mail exists (see resolveDevMail); it answers loopback requests only. */
  readonly devMail: boolean
  /** Which proxies in front of the server are trusted to name the client address (see TrustProxy). */
  readonly trustProxy: TrustProxy
}

/**
 * /dev/mail lists every mail of the outbox, reset links included: a developer convenience, opt-in and
 * local. DEV_MAIL=1 turns it on, DEV_MAIL=0 off; unset, it is on only in the embedded default of
 * `make start` (no DATABASE_URL, no PUBLIC_URL). Never with NODE_ENV=production (asking for it there is
 * refused at start), and never with SMTP_URL (mails do not go to the outbox then).
 */
export const resolveDevMail = (settings: {
  readonly devMail: Option.Option<boolean>
  readonly nodeEnv: Option.Option<string>
  readonly smtpUrl: Option.Option<unknown>
  readonly databaseUrl: Option.Option<unknown>
  readonly publicUrl: Option.Option<string>
}): Either.Either<boolean, ConfigError.ConfigError> => {
  const production = Option.contains(settings.nodeEnv, "production")
  if (production && Option.contains(settings.devMail, true)) {
    return Either.left(
      ConfigError.InvalidData(["DEV_MAIL"], "DEV_MAIL=1 is refused with NODE_ENV=production: the outbox page shows password-reset links")
    )
  }
  if (production || Option.isSome(settings.smtpUrl)) return Either.right(false)
  return Either.right(Option.getOrElse(settings.devMail, () => Option.isNone(settings.databaseUrl) && Option.isNone(settings.publicUrl)))
}

/**
 * TRUST_PROXY: unset, the client address is the socket's; a number n, the n proxies nearest the server
 * are trusted and the address is the n-th entry from the right of X-Forwarded-For; a list of addresses,
 * entries appended by those proxies are skipped from the right (only when the socket's peer is one).
 */
export type TrustProxy =
  | { readonly _tag: "None" }
  | { readonly _tag: "Hops"; readonly hops: number }
  | { readonly _tag: "Addresses"; readonly addresses: ReadonlyArray<string> }

export const parseTrustProxy = (value: Option.Option<string>): Either.Either<TrustProxy, ConfigError.ConfigError> => {
  const text = Option.getOrElse(value, () => "").trim()
  if (text === "" || text === "0" || text.toLowerCase() === "false") return Either.right({ _tag: "None" })
  if (/^\d+$/.test(text)) return Either.right({ _tag: "Hops", hops: Number(text) })
  const addresses = text
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "")
  if (addresses.every(isIP)) return Either.right({ _tag: "Addresses", addresses: addresses.map(normalizeAddress) })
  return Either.left(
    ConfigError.InvalidData(
      ["TRUST_PROXY"],
      `TRUST_PROXY must be a number of proxies or a comma-separated list of IP addresses, got "${text}"`
    )
  )
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are one client. */
export const normalizeAddress = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")

/** JWT_SECRET signs every access token and unsubscribe link: a short one can be guessed offline. */
export const MIN_SECRET_BYTES = 32
export const checkJwtSecret = (secret: Option.Option<Redacted.Redacted>): Either.Either<void, ConfigError.ConfigError> =>
  Option.isSome(secret) && Buffer.byteLength(Redacted.value(secret.value), "utf8") < MIN_SECRET_BYTES
    ? Either.left(
        ConfigError.InvalidData(
          ["JWT_SECRET"],
          `JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes (e.g. \`openssl rand -base64 48\`); unset it in development to use a generated one`
        )
      )
    : Either.right(undefined)

export type PaymentsMode = "stripe" | "sandbox"

/**
 * PAYMENTS_MODE when given; otherwise `stripe` when STRIPE_SECRET_KEY is set, else `sandbox`.
 * `stripe` without a key is refused: never a silent fall back to the sandbox.
 */
export const resolvePaymentsMode = (
  mode: Option.Option<string>,
  stripeSecretKey: Option.Option<Redacted.Redacted>
): Either.Either<PaymentsMode, ConfigError.ConfigError> => {
  const chosen = Option.getOrElse(mode, () => (Option.isSome(stripeSecretKey) ? "stripe" : "sandbox"))
  if (chosen !== "stripe" && chosen !== "sandbox") {
    return Either.left(ConfigError.InvalidData(["PAYMENTS_MODE"], `PAYMENTS_MODE must be "stripe" or "sandbox", got "${chosen}"`))
  }
  if (chosen === "stripe" && Option.isNone(stripeSecretKey)) {
    return Either.left(
      ConfigError.MissingData(
        ["STRIPE_SECRET_KEY"],
        "PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY (unset PAYMENTS_MODE or set it to sandbox for the local sandbox)"
      )
    )
  }
  return Either.right(chosen)
}

/**
 * `postgres`: socket.io events and presence cross every process on the same database (LISTEN/NOTIFY);
 * `local`: one process only. REALTIME_ADAPTER when given; otherwise `postgres` on an external
 * PostgreSQL (DATABASE_URL), `local` on the embedded PGlite (single-process by its lock, and its
 * notifications do not cross connections, so `postgres` is refused there).
 */
export type RealtimeAdapterKind = "postgres" | "local"

export const resolveRealtimeAdapter = (
  adapter: Option.Option<string>,
  databaseUrl: Option.Option<Redacted.Redacted>
): Either.Either<RealtimeAdapterKind, ConfigError.ConfigError> => {
  const chosen = Option.getOrElse(adapter, () => (Option.isSome(databaseUrl) ? "postgres" : "local"))
  if (chosen !== "postgres" && chosen !== "local") {
    return Either.left(ConfigError.InvalidData(["REALTIME_ADAPTER"], `REALTIME_ADAPTER must be "postgres" or "local", got "${chosen}"`))
  }
  if (chosen === "postgres" && Option.isNone(databaseUrl)) {
    return Either.left(
      ConfigError.MissingData(
        ["DATABASE_URL"],
        "REALTIME_ADAPTER=postgres needs DATABASE_URL (the embedded database serves one process: unset REALTIME_ADAPTER or set it to local)"
      )
    )
  }
  return Either.right(chosen)
}

export class AppConfig extends Context.Tag("platform/AppConfig")<AppConfig, AppConfigShape>() {}

/** An optional secret; an empty value counts as unset (`DATABASE_URL= make start`). */
const optionalSecret = (name: string) =>
  Config.option(Config.redacted(name)).pipe(Config.map(Option.filter((value) => Redacted.value(value).trim() !== "")))

const config = Config.all({
  port: Config.integer("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  publicUrl: Config.option(Config.string("PUBLIC_URL")),
  databaseUrl: optionalSecret("DATABASE_URL"),
  databasePoolSize: Config.integer("DATABASE_POOL_SIZE").pipe(Config.withDefault(10)),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("var")),
  jwtSecret: optionalSecret("JWT_SECRET"),
  accessTokenTtlSeconds: Config.integer("ACCESS_TOKEN_TTL_SECONDS").pipe(Config.withDefault(15 * 60)),
  refreshTokenTtlDays: Config.integer("REFRESH_TOKEN_TTL_DAYS").pipe(Config.withDefault(30)),
  smtpUrl: optionalSecret("SMTP_URL"),
  mailFrom: Config.option(Config.string("MAIL_FROM")),
  supportEmail: Config.string("SUPPORT_EMAIL").pipe(Config.withDefault("support@marketplace.local")),
  siteName: Config.string("SITE_NAME").pipe(
    Config.map((name) => name.trim()),
    Config.withDefault(DEFAULT_SITE_NAME),
    Config.validate({ message: "SITE_NAME must be 1 to 40 characters", validation: (name) => name.length >= 1 && name.length <= 40 })
  ),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  authRateLimit: Config.integer("AUTH_RATE_LIMIT").pipe(Config.withDefault(20)),
  authRateWindowSeconds: Config.integer("AUTH_RATE_WINDOW_SECONDS").pipe(Config.withDefault(60)),
  adminTwoFactorRequired: Config.boolean("ADMIN_TWO_FACTOR_REQUIRED").pipe(Config.withDefault(false)),
  messageRateLimit: Config.integer("MESSAGE_RATE_LIMIT").pipe(
    Config.withDefault(30),
    Config.validate({ message: "MESSAGE_RATE_LIMIT must be 1 or more", validation: (n) => n >= 1 })
  ),
  messageRateWindowSeconds: Config.integer("MESSAGE_RATE_WINDOW_SECONDS").pipe(
    Config.withDefault(60),
    Config.validate({ message: "MESSAGE_RATE_WINDOW_SECONDS must be 1 or more", validation: (n) => n >= 1 })
  ),
  seedDemoData: Config.boolean("SEED_DEMO_DATA").pipe(Config.withDefault(true)),
  paymentsMode: Config.option(Config.string("PAYMENTS_MODE")).pipe(
    Config.map(Option.map((mode) => mode.trim().toLowerCase())),
    Config.map(Option.filter((mode) => mode !== ""))
  ),
  stripeSecretKey: optionalSecret("STRIPE_SECRET_KEY"),
  stripeWebhookSecret: optionalSecret("STRIPE_WEBHOOK_SECRET"),
  stripeConnectWebhookSecret: optionalSecret("STRIPE_CONNECT_WEBHOOK_SECRET"),
  stripeApiBase: Config.option(Config.string("STRIPE_API_BASE")).pipe(Config.map(Option.filter((url) => url.trim() !== ""))),
  stripePublishableKey: Config.option(Config.string("STRIPE_PUBLISHABLE_KEY")).pipe(Config.map(Option.filter((key) => key.trim() !== ""))),
  stripePlatformCountry: Config.string("STRIPE_PLATFORM_COUNTRY").pipe(
    Config.withDefault("CA"),
    Config.map((country) => country.trim().toUpperCase()),
    Config.validate({ message: "STRIPE_PLATFORM_COUNTRY must be a two-letter country code", validation: (c) => /^[A-Z]{2}$/.test(c) })
  ),
  geocoderUrl: Config.option(Config.string("GEOCODER_URL")).pipe(Config.map(Option.filter((url) => url.trim() !== ""))),
  ecbRatesUrl: Config.option(Config.string("ECB_RATES_URL")).pipe(Config.map(Option.filter((url) => url.trim() !== ""))),
  applicationCooldownDays: Config.number("APPLICATION_COOLDOWN_DAYS").pipe(
    Config.withDefault(7),
    Config.validate({ message: "APPLICATION_COOLDOWN_DAYS must be 0 or more", validation: (days) => days >= 0 })
  ),
  applicationMaxAttempts: Config.integer("APPLICATION_MAX_ATTEMPTS").pipe(
    Config.withDefault(3),
    Config.validate({ message: "APPLICATION_MAX_ATTEMPTS must be 1 or more", validation: (n) => n >= 1 })
  ),
  cancellationFreeHours: Config.number("CANCELLATION_FREE_HOURS").pipe(
    Config.withDefault(48),
    Config.validate({ message: "CANCELLATION_FREE_HOURS must be 0 or more", validation: (hours) => hours >= 0 })
  ),
  cancellationFeePercent: Config.integer("CANCELLATION_FEE_PERCENT").pipe(
    Config.withDefault(50),
    Config.validate({ message: "CANCELLATION_FEE_PERCENT must be between 0 and 100", validation: (n) => n >= 0 && n <= 100 })
  ),
  realtimeAdapter: Config.option(Config.string("REALTIME_ADAPTER")).pipe(
    Config.map(Option.map((adapter) => adapter.trim().toLowerCase())),
    Config.map(Option.filter((adapter) => adapter !== ""))
  ),
  devMail: Config.option(Config.boolean("DEV_MAIL")),
  nodeEnv: Config.option(Config.string("NODE_ENV")),
  trustProxy: Config.option(Config.string("TRUST_PROXY"))
}).pipe(
  Config.mapOrFail(({ nodeEnv, ...c }) =>
    Either.all({
      paymentsMode: resolvePaymentsMode(c.paymentsMode, c.stripeSecretKey),
      realtimeAdapter: resolveRealtimeAdapter(c.realtimeAdapter, c.databaseUrl),
      devMail: resolveDevMail({ devMail: c.devMail, nodeEnv, smtpUrl: c.smtpUrl, databaseUrl: c.databaseUrl, publicUrl: c.publicUrl }),
      trustProxy: parseTrustProxy(c.trustProxy),
      jwtSecret: Either.map(checkJwtSecret(c.jwtSecret), () => c.jwtSecret)
    }).pipe(Either.map((resolved) => ({ ...c, ...resolved, mailFrom: Option.getOrElse(c.mailFrom, () => defaultMailFrom(c.siteName)) })))
  )
)

export const AppConfigLive = Layer.effect(
  AppConfig,
  Effect.map(config, (c) => ({
    ...c,
    publicUrl: Option.getOrElse(c.publicUrl, () => `http://localhost:${c.port}`)
  }))
)

/** A config built from explicit values, for tests and tools. */
export const AppConfigOf = (overrides: Partial<AppConfigShape> = {}) =>
  Layer.effect(
    AppConfig,
    Effect.map(config, (c) => {
      const port = overrides.port ?? c.port
      return { ...c, port, publicUrl: Option.getOrElse(c.publicUrl, () => `http://localhost:${port}`), ...overrides }
    })
  )
