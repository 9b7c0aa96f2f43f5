import { HttpApiBuilder, HttpMiddleware, HttpRouter, HttpServer, HttpServerError, HttpServerRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Runtime } from "effect"
import * as http from "node:http"
import * as path from "node:path"
import { AppConfig } from "../platform/config"
import { ok } from "../platform/http/envelope"
import { HealthProbes, HealthProbesLive, healthCheck } from "../platform/http/health"
import { appMiddlewareWith, securityHeadersFor } from "../platform/http/middleware"
import { JobQueue } from "../platform/jobs"
import { unavailableOf } from "../platform/outage"
import { staticUi } from "../platform/http/static"
import { appRoot } from "../platform/paths"
import { attachRealtime } from "../platform/realtime"
import { postgresClusterLink } from "../platform/realtime-postgres"
import { Identity } from "../modules/identity"
import { AuthenticationLive, AuthHttpLive } from "../modules/identity/http"
import { IdentityRealtime } from "../modules/identity/adapters/socket"
import { UploadsHttpLive, UsersHttpLive } from "../modules/identity/profile/http"
import { NotificationSettings, Outbox } from "../modules/notifications"
import {
  ContactHttpLive,
  NotificationPreferencesHttpLive,
  NotificationUnsubscribeHttpLive,
  unsubscribeLinkPage
} from "../modules/notifications/http"
import { NotificationJobsLive } from "../modules/notifications/jobs"
import { SmtpDeliveryLive } from "../modules/notifications/adapters/smtp"
import { PaymentsWebhookHttpLive, StripeConnectHttpLive } from "../modules/payments/http"
import { SandboxDeliveryJobsLive } from "../modules/payments/adapters/sandbox-events"
import { SandboxRefundJobsLive } from "../modules/payments/adapters/charges-sandbox"
import { sandboxCheckoutRoutes } from "../modules/payments/adapters/sandbox/checkout-page"
import { sandboxConnectRoutes } from "../modules/payments/adapters/sandbox/connect-page"
import { CategoriesHttpLive, ServicesHttpLive } from "../modules/catalogue/http"
import { Catalogue } from "../modules/catalogue"
import { Profiles } from "../modules/identity/profile/service"
import { shareRoutes } from "./share-pages"
import { PlacesHttpLive } from "../modules/catalogue/places/http"
import { ExchangeRatesHttpLive } from "../modules/catalogue/rates/http"
import { ExchangeRateJobsLive } from "../modules/catalogue/rates/jobs"
import { AdminApplicationsHttpLive, ProviderApplicationsHttpLive } from "../modules/onboarding/http"
import { BookingJobsLive } from "../modules/booking/jobs"
import { AvailabilityHttpLive, MyAvailabilityHttpLive } from "../modules/booking/availability/http"
import {
  BookingsHttpLive,
  CalendarFeedHttpLive,
  calendarFeedRoute,
  CancellationPolicyHttpLive,
  CheckoutHttpLive,
  EarningsHttpLive,
  ReceiptsHttpLive,
  ReviewsHttpLive
} from "../modules/booking/http"
import { CalendarFeeds } from "../modules/booking"
import { ConversationsHttpLive } from "../modules/messaging/http"
import { BlocksHttpLive, ModerationHttpLive, ReportsHttpLive } from "../modules/messaging/safety-http"
import { MessagingRealtime } from "../modules/messaging/adapters/socket"
import { AdministrationHttpLive } from "../modules/administration/http"
import { AccountHttpLive, exportDownloadRoute, exportLinkRedirect } from "../modules/privacy/http"
import { PrivacyJobsLive } from "../modules/privacy/jobs"
import { Privacy } from "../modules/privacy"
import { MarketplaceApi } from "./api"
import { devMailPage, localOnly } from "./dev-mail"

const started = Date.now()

const HealthHttpLive = HttpApiBuilder.group(MarketplaceApi, "health", (handlers) =>
  Effect.map(Effect.context<SqlClient.SqlClient | HealthProbes | JobQueue>(), (context) =>
    handlers.handleRaw("health", () => Effect.provide(healthCheck(started), context))
  )
)

const ApiLive = HttpApiBuilder.api(MarketplaceApi).pipe(
  Layer.provide([
    HealthHttpLive,
    AuthHttpLive,
    UsersHttpLive,
    ContactHttpLive,
    NotificationPreferencesHttpLive,
    NotificationUnsubscribeHttpLive,
    StripeConnectHttpLive,
    PaymentsWebhookHttpLive,
    CategoriesHttpLive,
    ServicesHttpLive,
    PlacesHttpLive,
    ExchangeRatesHttpLive,
    UploadsHttpLive,
    ProviderApplicationsHttpLive,
    AdminApplicationsHttpLive,
    BookingsHttpLive,
    CheckoutHttpLive,
    ReviewsHttpLive,
    CancellationPolicyHttpLive,
    AvailabilityHttpLive,
    MyAvailabilityHttpLive,
    CalendarFeedHttpLive,
    ReceiptsHttpLive,
    EarningsHttpLive,
    ConversationsHttpLive,
    BlocksHttpLive,
    ReportsHttpLive,
    ModerationHttpLive,
    AdministrationHttpLive,
    AccountHttpLive
  ]),
  Layer.provide(AuthenticationLive)
)

/** Routes beside the API: the local outbox (DEV_MAIL) and the UI with its index fallback. */
const PagesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const outbox = yield* Outbox
    const settings = yield* NotificationSettings
    // The outbox lists reset links: opt-in (config.devMail) and for this machine only (see dev-mail.ts).
    if (config.devMail) yield* router.get("/dev/mail", Effect.provideService(localOnly(devMailPage), Outbox, outbox))
    // Stand-ins for Stripe's hosted onboarding and dashboard, in sandbox mode only.
    if (config.paymentsMode === "sandbox") yield* sandboxConnectRoutes(router)
    if (config.paymentsMode === "sandbox") yield* sandboxCheckoutRoutes(router)
    // The one-click unsubscribe link of mails: a small page (see notifications/http.ts).
    yield* router.get(
      "/api/notifications/unsubscribe",
      Effect.provideService(unsubscribeLinkPage, NotificationSettings, settings).pipe(Effect.provideService(AppConfig, config))
    )
    // Providers' private calendar feeds: public, text/calendar (see booking/http.ts).
    const feeds = yield* CalendarFeeds
    yield* router.get("/api/calendar/:file", Effect.provideService(calendarFeedRoute, CalendarFeeds, feeds))
    // A data export's download, once, its token the credential; older mails' GET links go to its page (see privacy/http.ts).
    const privacy = yield* Privacy
    yield* router.post("/api/account/export/:token", Effect.provideService(exportDownloadRoute, Privacy, privacy))
    yield* router.get("/api/account/export/:token", exportLinkRedirect)
    // An unknown API path is a 404 envelope, never the UI's index.html.
    const apiNotFound = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => new HttpServerError.RouteNotFound({ request }))
    yield* router.all("/api", apiNotFound)
    yield* router.all("/api/*", apiNotFound)
    // Shared links: a service's and a public profile's page with their tags, and their share images.
    const shared = yield* Effect.all({ catalogue: Catalogue, profiles: Profiles })
    for (const [route, handler] of shareRoutes(path.join(appRoot, "dist", "ui"))) {
      yield* router.get(
        route,
        handler.pipe(
          Effect.provideService(Catalogue, shared.catalogue),
          Effect.provideService(Profiles, shared.profiles),
          Effect.provideService(AppConfig, config)
        )
      )
    }
    yield* router.get("*", staticUi(path.join(appRoot, "dist", "ui"), config))
  })
)

/**
 * One Node http.Server carries the JSON API (/api), its OpenAPI document (/api/docs), the UI and
 * socket.io. The app middleware adds request ids, access logs, security headers and the error envelope.
 */
export const ServerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const server = http.createServer({ keepAliveTimeout: 5_000 })
    const HttpLive = HttpApiBuilder.serve().pipe(
      Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/docs" })),
      Layer.provide(
        HttpApiBuilder.middleware(
          appMiddlewareWith(securityHeadersFor({ publicUrl: config.publicUrl, stripe: config.paymentsMode === "stripe" }))
        )
      ),
      Layer.provide(PagesLive),
      Layer.provide(ApiLive),
      HttpServer.withLogAddress,
      // No trace exporter is configured: skip the per-request span (URL parsing, header redaction).
      HttpMiddleware.withTracerDisabledWhen(() => true),
      Layer.provide(NodeHttpServer.layer(() => server, { port: config.port, host: config.host }))
    )
    const RealtimeLive = Layer.unwrapEffect(
      Effect.gen(function* () {
        const identity = yield* Identity
        const run = Runtime.runPromise(yield* Effect.runtime<never>())
        const messaging = yield* MessagingRealtime
        const probes = yield* HealthProbes
        // Across processes (REALTIME_ADAPTER=postgres): the PostgreSQL adapter on DATABASE_URL.
        const cluster =
          config.realtimeAdapter === "postgres"
            ? Option.map(config.databaseUrl, (url) =>
                postgresClusterLink(
                  url,
                  (error) =>
                    void run(Effect.logWarning(`real-time adapter error: ${error instanceof Error ? error.message : String(error)}`)).catch(
                      () => undefined
                    )
                ).pipe(Effect.tap((link) => Effect.sync(() => probes.setRealtime(() => (link.listening() ? "ok" : "down")))))
              )
            : Option.none()
        return attachRealtime(
          server,
          // Deactivated accounts are refused here, and their open sockets closed by IdentityRealtime.
          (token) =>
            run(
              identity.authenticateSession(token).pipe(
                Effect.map(({ user, sessionId }) => ({ id: user.id, sessionId })),
                Effect.orElseSucceed(() => undefined),
                // The database is away: not a wrong token, so the client is told to come back, not to log in again.
                Effect.catchAllCause((cause) => (unavailableOf(cause) ? Effect.succeed("unavailable" as const) : Effect.failCause(cause)))
              )
            ),
          [messaging, yield* IdentityRealtime],
          cluster
        )
      })
    )
    // Realtime is built after the HTTP layer, so it can take over the upgrade listeners Effect registered.
    // Handlers never need it: services announce events through ports (messaging's ConversationEvents,
    // an in-process feed of the domain layers) and the real-time modules relay them to sockets.
    // Background jobs (booking timers, payment retries, deferred mails, digests, SMTP deliveries) run while the server does.
    const MailDeliveryLive = Option.match(config.smtpUrl, { onNone: () => Layer.empty, onSome: SmtpDeliveryLive })
    // One HealthProbes for both: the health check reads what the real-time link registers.
    return Layer.provideMerge(RealtimeLive, HttpLive).pipe(
      Layer.provide(HealthProbesLive),
      Layer.merge(BookingJobsLive),
      Layer.merge(SandboxDeliveryJobsLive),
      Layer.merge(SandboxRefundJobsLive),
      Layer.merge(NotificationJobsLive),
      Layer.merge(PrivacyJobsLive),
      Layer.merge(ExchangeRateJobsLive),
      Layer.merge(MailDeliveryLive)
    )
  })
)

export type { HttpRouter }
