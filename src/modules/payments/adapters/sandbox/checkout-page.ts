import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import { type Language, type MessageKey, translate } from "../../../../platform/messages"
import { formatMoney } from "../../../../platform/money"
import type { SandboxCheckoutSession } from "../../ports"
import { type CardProblem, type PayOutcome, SandboxCheckout } from "../charges-sandbox"
import { sandboxPaths } from "../sandbox"
import { escape, htmlAnswer, page, pageLanguage, withQuery } from "./connect-page"

/**
 * The sandbox's stand-in for Stripe's hosted Checkout (PAYMENTS_MODE=sandbox only): the card form of a
 * session, the bank's authentication step of a card that asks for it, and the way back to the
 * marketplace. Plain forms, no script: it works without JavaScript and under the app's CSP.
 */

const STYLE = `
.summary{margin:1rem 0}
.note{color:#374151}
form.card{display:grid;gap:.9rem;background:#fff;border:1px solid #d1d5db;border-radius:10px;padding:1.25rem;margin-top:1rem}
form.card label{font-weight:600;display:block;margin-bottom:.25rem}
form.card input{font:inherit;width:100%;box-sizing:border-box;padding:.6rem .75rem;border:1px solid #6b7280;border-radius:8px;min-height:44px}
form.card input[aria-invalid=true]{border:2px solid #b91c1c}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.hint{margin:0;color:#4b5563;font-size:.95rem}
.alert{background:#fef2f2;border:1px solid #b91c1c;color:#7f1d1d;border-radius:8px;padding:.75rem 1rem;margin-top:1rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
.actions form{margin:0}
`

/** An amount in the currency's minor unit, written for the page's language (none for zero-decimal currencies). */
export const formatAmount = (language: Language, amountMinor: number, currency: string) =>
  formatMoney(language === "fr" ? "fr-CA" : "en-CA", amountMinor, currency)

const problemKeys: Record<CardProblem, MessageKey> = {
  invalidNumber: "sandbox.checkout.invalidCard",
  invalidExpiry: "sandbox.checkout.invalidExpiry",
  invalidCvc: "sandbox.checkout.invalidCvc"
}
const problemFields: Record<CardProblem, string> = { invalidNumber: "number", invalidExpiry: "expiry", invalidCvc: "cvc" }

interface FormValues {
  readonly number: string
  readonly expiry: string
  readonly name: string
}

export const sandboxCheckoutRoutes = <E, R>(router: HttpRouter.HttpRouter.Service<E, R>) =>
  Effect.gen(function* () {
    const checkout = yield* SandboxCheckout

    const switchHref = (sessionId: string, language: Language) =>
      withQuery(sandboxPaths.checkout(sessionId), { lang: language === "fr" ? "en" : "fr" })
    const messagePage = (language: Language, sessionId: string, key: MessageKey, status: number, back?: string) =>
      htmlAnswer(
        page(
          language,
          translate(language, key),
          switchHref(sessionId, language),
          back ? `<p><a href="${escape(back)}">${escape(translate(language, "sandbox.checkout.backToMarketplace"))}</a></p>` : ""
        ),
        status
      )

    const hidden = (language: Language) => `<input type="hidden" name="lang" value="${language}">`
    const summary = (language: Language, session: SandboxCheckoutSession) => {
      const t = (key: MessageKey) => escape(translate(language, key))
      return `<dl class="summary">
<dt>${t("sandbox.checkout.product")}</dt><dd>${escape(session.productName)}</dd>
<dt>${t("sandbox.checkout.amount")}</dt><dd data-amount>${escape(formatAmount(language, session.amountMinor, session.currency))}</dd>
</dl>`
    }
    const cancelForm = (language: Language, session: SandboxCheckoutSession) =>
      `<form method="post" action="${escape(sandboxPaths.checkout(session.id))}/cancel">${hidden(language)}<button type="submit" class="secondary">${escape(translate(language, "sandbox.checkout.cancel"))}</button></form>`

    /** The card form, with an error above it (and on its field) after a refused attempt. */
    const cardPage = (
      language: Language,
      session: SandboxCheckoutSession,
      error?: { readonly key: MessageKey; readonly field?: string },
      values: FormValues = { number: "", expiry: "", name: session.cardholderName ?? "" },
      status = 200
    ) => {
      const t = (key: MessageKey) => escape(translate(language, key))
      const payLabel =
        session.mode === "payment"
          ? `${translate(language, "sandbox.checkout.pay")} ${formatAmount(language, session.amountMinor, session.currency)}`
          : translate(language, "sandbox.checkout.saveCard")
      const field = (name: string, key: MessageKey, value: string, attributes: string) => {
        const invalid = error?.field === name
        const describedBy = [name === "number" ? "test-cards" : "", invalid ? "card-error" : ""].filter(Boolean).join(" ")
        return `<div><label for="${name}">${t(key)}</label><input id="${name}" name="${name}" value="${escape(value)}" ${attributes}${invalid ? ' aria-invalid="true"' : ""}${describedBy ? ` aria-describedby="${describedBy}"` : ""}></div>`
      }
      return htmlAnswer(
        page(
          language,
          translate(language, "sandbox.checkout.title"),
          switchHref(session.id, language),
          `<p>${t("sandbox.checkout.intro")}</p>
${summary(language, session)}
<p class="note">${t(session.mode === "payment" ? "sandbox.checkout.authorizeNote" : "sandbox.checkout.saveCardNote")}</p>
${error ? `<div class="alert" id="card-error" role="alert">${t(error.key)}</div>` : ""}
<form class="card" method="post" action="${escape(sandboxPaths.checkout(session.id))}/pay">
${hidden(language)}
${field("number", "sandbox.checkout.cardNumber", values.number, 'inputmode="numeric" autocomplete="cc-number" required')}
<p class="hint" id="test-cards">${t("sandbox.checkout.testCards")}</p>
<div class="pair">
${field("expiry", "sandbox.checkout.expiry", values.expiry, 'autocomplete="cc-exp" placeholder="MM/AA" required')}
${field("cvc", "sandbox.checkout.cvc", "", 'inputmode="numeric" autocomplete="cc-csc" required')}
</div>
${field("name", "sandbox.checkout.cardHolder", values.name, 'autocomplete="cc-name"')}
<div><button type="submit" class="primary">${escape(payLabel)}</button></div>
</form>
<div class="actions">${cancelForm(language, session)}</div>`,
          STYLE
        ),
        status
      )
    }

    /** The bank's step for a card that asks for authentication (Stripe's 3D Secure test page). */
    const authenticationPage = (language: Language, session: SandboxCheckoutSession) => {
      const t = (key: MessageKey) => escape(translate(language, key))
      const choice = (outcome: "approve" | "fail", key: MessageKey, style: string) =>
        `<form method="post" action="${escape(sandboxPaths.checkout(session.id))}/authenticate">${hidden(language)}<input type="hidden" name="outcome" value="${outcome}"><button type="submit" class="${style}">${t(key)}</button></form>`
      return htmlAnswer(
        page(
          language,
          translate(language, "sandbox.checkout.authTitle"),
          switchHref(session.id, language),
          `<p>${t("sandbox.checkout.authIntro")}</p>
${summary(language, session)}
<div class="actions">${choice("approve", "sandbox.checkout.authApprove", "primary")}${choice("fail", "sandbox.checkout.authFail", "secondary")}</div>`,
          STYLE
        )
      )
    }

    /** The request's session, language and form; a session whose return addresses leave the marketplace is refused. */
    const context = (fromForm: boolean) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { sessionId = "" } = yield* HttpRouter.params
        const form = fromForm ? yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty) : UrlParams.empty
        const query = yield* HttpServerRequest.ParsedSearchParams
        const field = (name: string) => Option.getOrElse(UrlParams.getFirst(form, name), () => "")
        const language = pageLanguage(request, fromForm ? field("lang") : typeof query.lang === "string" ? query.lang : undefined)
        const found = yield* checkout.find(sessionId)
        return { sessionId, language, field, found }
      })

    type Context = Effect.Effect.Success<ReturnType<typeof context>>
    type Found = Option.Option.Value<Context["found"]>

    /** The session, or the answer for a missing one, one whose return addresses leave the marketplace, or (`open`) a closed one. */
    const usable = (
      { found, language, sessionId }: Context,
      open: boolean
    ): Either.Either<Found, HttpServerResponse.HttpServerResponse> => {
      if (Option.isNone(found)) return Either.left(messagePage(language, sessionId, "payments.checkoutSessionNotFound", 404))
      const { session, state } = found.value
      if (!checkout.isOwnUrl(session.successUrl) || !checkout.isOwnUrl(session.cancelUrl))
        return Either.left(messagePage(language, sessionId, "sandbox.checkout.badReturn", 400))
      if (open && state !== "open") return Either.left(messagePage(language, sessionId, "sandbox.checkout.expired", 410, session.cancelUrl))
      return Either.right(found.value)
    }

    const answer = (outcome: PayOutcome, { language, sessionId }: Context, { session }: Found, values: FormValues) => {
      switch (outcome._tag) {
        case "Completed":
          return HttpServerResponse.redirect(outcome.successUrl, { status: 303 })
        case "Declined":
          return cardPage(language, session, { key: "sandbox.checkout.declined", field: "number" }, values, 402)
        case "InvalidCard":
          return cardPage(language, session, { key: problemKeys[outcome.problem], field: problemFields[outcome.problem] }, values, 400)
        case "AuthenticationRequired":
          return authenticationPage(language, session)
        case "AuthenticationFailed":
          return cardPage(language, session, { key: "sandbox.checkout.authFailed" }, values, 402)
        case "NothingToAuthenticate":
          return HttpServerResponse.redirect(withQuery(sandboxPaths.checkout(sessionId), { lang: language }), { status: 303 })
        case "Closed":
          return messagePage(language, sessionId, "sandbox.checkout.expired", 410, session.cancelUrl)
        case "NotFound":
          return messagePage(language, sessionId, "payments.checkoutSessionNotFound", 404)
      }
    }

    const show = Effect.gen(function* () {
      const ctx = yield* context(false)
      const found = usable(ctx, true)
      if (Either.isLeft(found)) return found.left
      return cardPage(ctx.language, found.right.session)
    })

    const pay = Effect.gen(function* () {
      const ctx = yield* context(true)
      const found = usable(ctx, true)
      if (Either.isLeft(found)) return found.left
      const values = { number: ctx.field("number"), expiry: ctx.field("expiry"), name: ctx.field("name") }
      const outcome = yield* checkout.pay(ctx.sessionId, { number: values.number, expiry: values.expiry, cvc: ctx.field("cvc") })
      return answer(outcome, ctx, found.right, values)
    })

    const authenticate = Effect.gen(function* () {
      const ctx = yield* context(true)
      const found = usable(ctx, true)
      if (Either.isLeft(found)) return found.left
      const outcome = yield* checkout.authenticate(ctx.sessionId, ctx.field("outcome") === "approve")
      return answer(outcome, ctx, found.right, { number: "", expiry: "", name: found.right.session.cardholderName ?? "" })
    })

    /** Back to the marketplace; the session stays open until it expires (as on Stripe). */
    const cancel = Effect.gen(function* () {
      const ctx = yield* context(true)
      const found = usable(ctx, false)
      if (Either.isLeft(found)) return found.left
      return HttpServerResponse.redirect(found.right.session.cancelUrl, { status: 303 })
    })

    yield* router.get("/sandbox/checkout/:sessionId", show)
    yield* router.post("/sandbox/checkout/:sessionId/pay", pay)
    yield* router.post("/sandbox/checkout/:sessionId/authenticate", authenticate)
    yield* router.post("/sandbox/checkout/:sessionId/cancel", cancel)
  })
