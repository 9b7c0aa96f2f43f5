import { HttpApiMiddleware, HttpApiSecurity, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Option, Schema } from "effect"
// A type only: the account is identity's; this file loads no module code (contracts and the UI import it).
import type { User } from "../../modules/identity/domain"
import { Forbidden, Unauthorized } from "../errors"
import { asFailureWithStatus } from "./error-responses"

// Authentication is the platform's HTTP layer: every module's contract marks its endpoints with
// `Authentication`, and their handlers read `CurrentUser`. The implementation that checks bearer
// tokens is identity's (`AuthenticationLive`, identity/http.ts), provided by the composition root.

/** The authenticated account, provided to handlers of endpoints that use Authentication. */
export class CurrentUser extends Context.Tag("platform/CurrentUser")<CurrentUser, User>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("platform/Authentication", {
  // 401 in the document, as the envelope (without a status, the document said 500); 403 for an admin
  // who must enrol in two-step login first (identity/http.ts).
  failure: Schema.Union(asFailureWithStatus(Unauthorized, 401), asFailureWithStatus(Forbidden, 403)),
  provides: CurrentUser,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The caller of a public endpoint when it sent a valid bearer token, else undefined: a missing or bad
 * token on a public read is not an error (the owner of an inactive service, say, sees it; others not).
 */
export const optionalCaller = <A>(authenticate: (token: string) => Effect.Effect<A, unknown>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const header = request.headers.authorization
    return header && /^bearer /i.test(header)
      ? Effect.map(Effect.option(authenticate(header.slice(7).trim())), Option.getOrUndefined)
      : Effect.succeed(undefined)
  })
