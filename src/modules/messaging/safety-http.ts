import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../app/api"
import { CurrentUser } from "../../platform/http/authentication"
import { localized, ok } from "../../platform/http/envelope"
import { pagination } from "../../platform/paging"
import { Moderation } from "./moderation"
import { toAdminReportView, toBlockView, toReportView } from "./views"

// Handlers of blocks, reports and the moderation queue (issue 15; contract.ts).

export const BlocksHttpLive = HttpApiBuilder.group(MarketplaceApi, "blocks", (handlers) =>
  Effect.gen(function* () {
    const moderation = yield* Moderation
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const found = yield* moderation.blocks(user.id, urlParams)
          return ok({ blocks: found.rows.map(toBlockView), pagination: pagination(found.total, found.page, found.limit) })
        })
      )
      .handle("block", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const { block, created } = yield* moderation.block(user.id, path.id)
          const message = yield* localized("messaging.userBlocked")
          return created
            ? ok({ block: toBlockView(block), created: true as const }, message)
            : ok({ block: toBlockView(block), created: false as const }, message)
        })
      )
      .handle("unblock", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          yield* moderation.unblock(user.id, path.id)
          return ok({ userId: path.id.toLowerCase() }, yield* localized("messaging.userUnblocked"))
        })
      )
  })
)

export const ReportsHttpLive = HttpApiBuilder.group(MarketplaceApi, "reports", (handlers) =>
  Effect.gen(function* () {
    const moderation = yield* Moderation
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* CurrentUser
        const { report, created } = yield* moderation.report(user.id, payload)
        return ok({ report: toReportView(report) }, yield* localized(created ? "moderation.reportReceived" : "moderation.alreadyReported"))
      })
    )
  })
)

export const ModerationHttpLive = HttpApiBuilder.group(MarketplaceApi, "moderation", (handlers) =>
  Effect.gen(function* () {
    const moderation = yield* Moderation
    const asAdmin = (user: { readonly id: string }) => ({ id: user.id, isAdmin: true })
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const found = yield* moderation.queue(user, urlParams)
          return ok({
            reports: found.rows.map((r) => toAdminReportView(r, asAdmin(user))),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          return ok({ report: toAdminReportView(yield* moderation.find(user, path.id), asAdmin(user)) })
        })
      )
      .handle("decide", ({ path, payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const report = yield* moderation.decide(user, path.id, payload)
          return ok({ report: toAdminReportView(report, asAdmin(user)) }, yield* localized("moderation.decided"))
        })
      )
  })
)
