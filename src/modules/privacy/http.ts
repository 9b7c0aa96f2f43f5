import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { localized, ok } from "../../platform/http/envelope"
import { CurrentUser } from "../../platform/http/authentication"
import { RateLimiter } from "../../platform/rate-limit"
import { MarketplaceApi } from "../../app/api"
import { Privacy } from "./service"

export const AccountHttpLive = HttpApiBuilder.group(MarketplaceApi, "account", (handlers) =>
  Effect.gen(function* () {
    const privacy = yield* Privacy
    const limiter = yield* RateLimiter
    return handlers
      .handle("requestExport", () =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          yield* limiter.consume(`data-export:user:${user.id}`)
          yield* privacy.requestExport(user)
          return ok({}, yield* localized("privacy.exportRequested"))
        })
      )
      .handle("deleteAccount", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          // It checks the password: limited per account, as update-password is.
          yield* limiter.consume(`delete-account:user:${user.id}`)
          yield* privacy.deleteAccount(user, payload.password)
          return ok({}, yield* localized("privacy.accountDeleted"))
        })
      )
  })
)

/**
 * POST /api/account/export/:token, the download button of the mailed link's page: the archive as a JSON
 * file to save, once. The token (256 random bits, stored hashed, 7 days) is the credential, as a reset
 * link's is; a used, unknown or expired one is a 404 envelope in the reader's language.
 */
export const exportDownloadRoute = Effect.gen(function* () {
  const privacy = yield* Privacy
  const params = yield* HttpRouter.params
  const archive = yield* privacy.download(params.token ?? "")
  return HttpServerResponse.unsafeJson(archive, {
    headers: { "content-disposition": 'attachment; filename="my-data.json"', "cache-control": "no-store" }
  })
})

/**
 * GET /api/account/export/:token, the link of mails sent before the page existed: to the page, which
 * downloads on a click. A GET spends nothing (mail scanners open links), so the link stays single-use.
 */
export const exportLinkRedirect = Effect.map(HttpRouter.params, (params) =>
  HttpServerResponse.empty({
    status: 303,
    headers: { location: `/account/export/${encodeURIComponent(params.token ?? "")}`, "cache-control": "no-store" }
  })
)
