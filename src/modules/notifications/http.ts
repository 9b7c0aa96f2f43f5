import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { MarketplaceApi } from "../../app/api"
import { AppConfig } from "../../platform/config"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { type Language, translate } from "../../platform/messages"
import { RateLimiter } from "../../platform/rate-limit"
import { CurrentUser } from "../identity/contract"
import { Notifications } from "./service"
import { NotificationSettings } from "./settings"

const clientAddress = Effect.map(HttpServerRequest.HttpServerRequest, (request) => Option.getOrElse(request.remoteAddress, () => "unknown"))

export const ContactHttpLive = HttpApiBuilder.group(MarketplaceApi, "contact", (handlers) =>
  Effect.gen(function*() {
    const notifications = yield* Notifications
    const limiter = yield* RateLimiter
    return handlers.handle("sendMessage", ({ payload }) =>
      Effect.gen(function*() {
        yield* limiter.consume(`contact:${yield* clientAddress}`)
        yield* notifications.submitContactMessage(payload, null)
        return ok({}, yield* localized("contact.sent"))
      })
    )
  })
)

export const NotificationPreferencesHttpLive = HttpApiBuilder.group(MarketplaceApi, "notificationPreferences", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* NotificationSettings
    return handlers
      .handle("get", () =>
        Effect.map(Effect.flatMap(CurrentUser, (user) => settings.get(user.id)), (preferences) => ok({ preferences })))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const preferences = yield* settings.update((yield* CurrentUser).id, payload)
          return ok({ preferences }, yield* localized("notifications.preferencesSaved"))
        }))
  })
)

export const NotificationUnsubscribeHttpLive = HttpApiBuilder.group(MarketplaceApi, "notificationUnsubscribe", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* NotificationSettings
    const limiter = yield* RateLimiter
    return handlers.handle("unsubscribe", ({ payload }) =>
      Effect.gen(function*() {
        yield* limiter.consume(`unsubscribe:${yield* clientAddress}`)
        yield* settings.unsubscribeByEmail(payload.email)
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
export const unsubscribeLinkPage = Effect.gen(function*() {
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
