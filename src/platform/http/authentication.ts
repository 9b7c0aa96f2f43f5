import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context } from "effect"
// A type only: the account is identity's; this file loads no module code (contracts and the UI import it).
import type { User } from "../../modules/identity/domain"
import { Unauthorized } from "../errors"

// Authentication is the platform's HTTP layer: every module's contract marks its endpoints with
// `Authentication`, and their handlers read `CurrentUser`. The implementation that checks bearer
// tokens is identity's (`AuthenticationLive`, identity/http.ts), provided by the composition root.

/** The authenticated account, provided to handlers of endpoints that use Authentication. */
export class CurrentUser extends Context.Tag("platform/CurrentUser")<CurrentUser, User>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("platform/Authentication", {
  failure: Unauthorized,
  provides: CurrentUser,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
