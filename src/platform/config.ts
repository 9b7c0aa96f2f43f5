import { Config, Context, Effect, Layer, Option, Redacted } from "effect"

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
  readonly mailFrom: string
  readonly supportEmail: string
  readonly logLevel: string
  /** Requests per window allowed on the sensitive auth endpoints, per client address. */
  readonly authRateLimit: number
  readonly authRateWindowSeconds: number
  readonly seedDemoData: boolean
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
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("Marketplace <no-reply@marketplace.local>")),
  supportEmail: Config.string("SUPPORT_EMAIL").pipe(Config.withDefault("support@marketplace.local")),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  authRateLimit: Config.integer("AUTH_RATE_LIMIT").pipe(Config.withDefault(20)),
  authRateWindowSeconds: Config.integer("AUTH_RATE_WINDOW_SECONDS").pipe(Config.withDefault(60)),
  seedDemoData: Config.boolean("SEED_DEMO_DATA").pipe(Config.withDefault(true))
})

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
