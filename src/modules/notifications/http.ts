import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Redacted } from "effect"
import { MarketplaceApi } from "../../app/api"
import { AppConfig } from "../../platform/config"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { type Language, translate } from "../../platform/messages"
import { detached } from "../../platform/detached"
import { Forbidden } from "../../platform/errors"
import { clientAddress } from "../../platform/http/client-address"
import { RateLimiter } from "../../platform/rate-limit"
import { Authentication, CurrentUser } from "../../platform/http/authentication"
import { Notifications } from "./service"
import { NotificationSettings, unsubscribeAddress } from "./settings"

const UnsubscribeNotYours = new Forbidden({ code: "NOT_YOUR_ADDRESS", key: "notifications.unsubscribeNotYours" })

export const ContactHttpLive = HttpApiBuilder.group(MarketplaceApi, "contact", (handlers) =>
  Effect.gen(function* () {
    const notifications = yield* Notifications
    const limiter = yield* RateLimiter
    return handlers.handle("sendMessage", ({ payload }) =>
      Effect.gen(function* () {
        yield* limiter.consume(`contact:${yield* clientAddress}`)
        yield* notifications.submitContactMessage(payload, null)
        return ok({}, yield* localized("contact.sent"))
      })
    )
  })
)

export const NotificationPreferencesHttpLive = HttpApiBuilder.group(MarketplaceApi, "notificationPreferences", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* NotificationSettings
    return handlers
      .handle("get", () =>
        Effect.map(
          Effect.flatMap(CurrentUser, (user) => settings.get(user.id)),
          (preferences) => ok({ preferences })
        )
      )
      .handle("update", ({ payload }) =>
        Effect.gen(function* () {
          const preferences = yield* settings.update((yield* CurrentUser).id, payload)
          return ok({ preferences }, yield* localized("notifications.preferencesSaved"))
        })
      )
  })
)

/**
 * POST /api/notifications/unsubscribe. Signed in (a bearer token): the caller's own address only,
 * turned off at once (another address is a 403). Anonymous: the address is checked, then the answer
 * leaves at once and the confirmation mail (the signed one-click link) is sent after it, so neither
 * the message nor the timing tells whether an account exists; nothing is turned off until the
 * address's owner opens the link.
 */
export const NotificationUnsubscribeHttpLive = HttpApiBuilder.group(MarketplaceApi, "notificationUnsubscribe", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* NotificationSettings
    const limiter = yield* RateLimiter
    const authentication = yield* Authentication
    return handlers.handle("unsubscribe", ({ payload }) =>
      Effect.gen(function* () {
        yield* limiter.consume(`unsubscribe:${yield* clientAddress}`)
        const request = yield* HttpServerRequest.HttpServerRequest
        const bearer = /^Bearer (.+)$/i.exec(request.headers["authorization"] ?? "")?.[1]
        if (bearer !== undefined) {
          const user = yield* authentication.bearer(Redacted.make(bearer))
          if (payload.email !== undefined && payload.email.trim().toLowerCase() !== user.email) return yield* UnsubscribeNotYours
          yield* settings.unsubscribeAccount(user.id)
          return ok({}, yield* localized("notifications.unsubscribed"))
        }
        const address = yield* unsubscribeAddress(payload.email)
        yield* detached("unsubscribe request", settings.requestUnsubscribe(address))
        return ok({}, yield* localized("notifications.unsubscribeRequested"))
      })
    )
  })
)

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const unsubscribePage = (language: Language, done: boolean, settingsUrl: string) => {
  const t = (key: Parameters<typeof translate>[1]) => escapeHtml(translate(language, key))
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${t("notifications.unsubscribePage.title")}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:560px;margin:3rem auto;padding:0 1rem;color:#111;line-height:1.5}a{color:#1d4ed8}</style></head>
<body><main><h1>${t("notifications.unsubscribePage.title")}</h1>
<p role="status">${t(done ? "notifications.unsubscribePage.done" : "notifications.unsubscribePage.invalid")}</p>
<p><a href="${escapeHtml(settingsUrl)}">${t("notifications.unsubscribePage.settings")}</a></p></main></body></html>`
}

/**
 * GET /api/notifications/unsubscribe?token=: the one-click link of every non-essential mail. A page,
 * not an API answer (people open it from their mail), so it is routed beside the API, not in the
 * OpenAPI contract. It is in the language of the account it turned off (else the request's).
 */
export const unsubscribeLinkPage = Effect.gen(function* () {
  const settings = yield* NotificationSettings
  const config = yield* AppConfig
  const request = yield* HttpServerRequest.HttpServerRequest
  const token = new URL(request.url, "http://local").searchParams.get("token") ?? ""
  const result = token.length > 0 && token.length <= 200 ? yield* settings.unsubscribeByToken(token) : Option.none<Language>()
  const language = Option.getOrElse(result, () => "fr" as Language)
  const shown = Option.isSome(result) ? language : yield* requestLanguage
  return HttpServerResponse.html(unsubscribePage(shown, Option.isSome(result), `${config.publicUrl.replace(/\/+$/, "")}/settings`)).pipe(
    HttpServerResponse.setStatus(Option.isSome(result) ? 200 : 400),
    HttpServerResponse.setHeader("cache-control", "no-store")
  )
})
