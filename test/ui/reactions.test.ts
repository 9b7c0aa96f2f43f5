import { describe, expect, it } from "vitest"
import { isTransientFailure, planReaction } from "../../ui/api/reactions"

const plan = (status: number, code = "X", message = "") => planReaction({ status, code, message })

describe("global response handling (spec section 8)", () => {
  it("sends an unverified email to /email-verification-required, other 401 to /login", () => {
    expect(plan(401, "EMAIL_NOT_VERIFIED")).toMatchObject({ kind: "warning", goTo: "/email-verification-required" })
    expect(plan(401, "X", "Please verify your email address (email verification)")).toMatchObject({ goTo: "/email-verification-required" })
    expect(plan(401, "SESSION_EXPIRED", "Votre session a expiré.")).toMatchObject({ kind: "warning", goTo: "/login" })
  })

  it("maps the other statuses of the table", () => {
    expect(plan(403)).toMatchObject({ reaction: "forbidden", kind: "error" })
    // An admin who must turn on two-step login first is sent to the security settings (issue 15).
    expect(plan(403, "TWO_FACTOR_REQUIRED")).toMatchObject({
      reaction: "twoFactorRequired",
      goTo: "/settings?twoFactor=required#two-factor"
    })
    expect(plan(400, "PAYMENT_ACCOUNT_REQUIRED", "Stripe Connect account required")).toMatchObject({ goTo: "/provider/payments/required" })
    expect(plan(400, "X", "Set up your connect account")).toMatchObject({ reaction: "paymentSetup" })
    expect(plan(422)).toMatchObject({ reaction: "invalidFields", kind: "warning" })
    expect(plan(400, "X", "validation failed")).toMatchObject({ reaction: "invalidFields" })
    expect(plan(404)).toMatchObject({ reaction: "notFound", kind: "info" })
    expect(plan(409)).toMatchObject({ reaction: "conflict", kind: "warning" })
    expect(plan(429)).toMatchObject({ reaction: "tooManyRequests" })
    expect(plan(500)).toMatchObject({ reaction: "serverError", kind: "error" })
    expect(plan(503)).toMatchObject({ reaction: "serverError" })
    expect(plan(0)).toMatchObject({ reaction: "network" })
    expect(plan(400, "MALFORMED_REQUEST", "Requête invalide.")).toBeUndefined()
  })
})

describe("failures that keep the stored session", () => {
  it("the network, a timeout and the server's side (503 while its database restarts) keep it; a refusal does not", () => {
    for (const status of [0, 500, 502, 503]) expect(isTransientFailure(status), String(status)).toBe(true)
    for (const status of [400, 401, 403, 404, 429]) expect(isTransientFailure(status), String(status)).toBe(false)
  })
})
