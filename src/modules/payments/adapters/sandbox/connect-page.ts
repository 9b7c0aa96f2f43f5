import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig } from "../../../../platform/config"
import { defaultLanguage, type Language, languageFromHeader, Languages, type MessageKey, translate } from "../../../../platform/messages"
import { SandboxConnect, sandboxPaths } from "../sandbox"

/**
 * The sandbox's stand-ins for Stripe's hosted pages (PAYMENTS_MODE=sandbox only): the onboarding page,
 * where the provider completes or abandons onboarding, and the Express dashboard.
 */

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const isLanguage = (value: string | undefined): value is Language => (Languages as ReadonlyArray<string | undefined>).includes(value)

/** `lang` (query or form field) first, then Accept-Language, then French. */
export const pageLanguage = (request: HttpServerRequest.HttpServerRequest, explicit: string | undefined): Language =>
  isLanguage(explicit) ? explicit : (languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage)

const STYLE = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#111827;background:#f9fafb;line-height:1.5}
.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.75rem 1.5rem;background:#fff;border-bottom:1px solid #d1d5db}
.badge{font-weight:600;color:#92400e;background:#fef3c7;border:1px solid #b45309;border-radius:999px;padding:.1rem .7rem;font-size:.9rem}
main{max-width:42rem;margin:2rem auto;padding:0 1.25rem}
h1{font-size:1.6rem;margin:0 0 1rem}
code{background:#e5e7eb;border-radius:4px;padding:.05rem .35rem;font-size:.95em;word-break:break-all}
.choices{display:grid;gap:1rem;margin-top:1.5rem}
.choice{background:#fff;border:1px solid #d1d5db;border-radius:10px;padding:1rem 1.25rem}
.choice p{margin:.5rem 0 0;color:#374151}
button{font:inherit;font-weight:600;border-radius:8px;padding:.65rem 1.25rem;cursor:pointer;min-height:44px}
.primary{background:#1d4ed8;color:#fff;border:2px solid #1d4ed8}
.primary:hover{background:#1e40af;border-color:#1e40af}
.secondary{background:#fff;color:#1f2937;border:2px solid #4b5563}
.secondary:hover{background:#f3f4f6}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1.5rem;background:#fff;border:1px solid #d1d5db;border-radius:10px;padding:1rem 1.25rem}
dt{font-weight:600}dd{margin:0}
`

/** The sandbox pages' shell (badge, language switch, heading); `extraStyle` adds a page's own rules. */
export const page = (language: Language, title: string, switchHref: string, body: string, extraStyle = "") => {
  const other: Language = language === "fr" ? "en" : "fr"
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>${STYLE}${extraStyle}</style>
</head>
<body>
<header class="top">
<span class="badge">Sandbox</span>
<nav aria-label="${language === "fr" ? "Langue" : "Language"}"><a href="${escape(switchHref)}" lang="${other}" hreflang="${other}">${other === "en" ? "English" : "Français"}</a></nav>
</header>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>`
}

export const htmlAnswer = (html: string, status = 200) =>
  HttpServerResponse.text(html, { status, contentType: "text/html; charset=utf-8", headers: { "cache-control": "no-store" } })

export const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`

const messagePage = (language: Language, key: MessageKey, status: number, switchHref: string) =>
  htmlAnswer(page(language, translate(language, key), switchHref, ""), status)

export const sandboxConnectRoutes = <E, R>(router: HttpRouter.HttpRouter.Service<E, R>) =>
  Effect.gen(function* () {
    const sandbox = yield* SandboxConnect
    const config = yield* AppConfig
    const setupUrl = `${config.publicUrl.replace(/\/+$/, "")}/provider/payments/setup`

    const onboardingPage = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { accountId = "" } = yield* HttpRouter.params
      const query = yield* HttpServerRequest.ParsedSearchParams
      const first = (name: string) => {
        const value = query[name]
        return typeof value === "string" ? value : value?.[0]
      }
      const language = pageLanguage(request, first("lang"))
      const returnUrl = first("return") ?? ""
      const refreshUrl = first("refresh") ?? ""
      const t = (key: MessageKey, params?: Record<string, string>) => translate(language, key, params)
      const path = sandboxPaths.onboarding(accountId)
      const switchHref = withQuery(path, { return: returnUrl, refresh: refreshUrl, lang: language === "fr" ? "en" : "fr" })
      if (!sandbox.isOwnUrl(returnUrl) || !sandbox.isOwnUrl(refreshUrl)) return messagePage(language, "sandbox.badLink", 400, switchHref)
      const account = yield* sandbox.find(accountId)
      if (Option.isNone(account)) return messagePage(language, "sandbox.notFound", 404, switchHref)
      const hidden = `<input type="hidden" name="return" value="${escape(returnUrl)}">
<input type="hidden" name="refresh" value="${escape(refreshUrl)}">
<input type="hidden" name="lang" value="${language}">`
      return htmlAnswer(
        page(
          language,
          t("sandbox.onboarding.title"),
          switchHref,
          `<p>${escape(t("sandbox.onboarding.intro"))}</p>
<p>${escape(t("sandbox.onboarding.choose", { accountId: "\u0000" })).replace("\u0000", `<code>${escape(accountId)}</code>`)}</p>
<div class="choices">
<form class="choice" method="post" action="${escape(path)}/complete">
${hidden}
<button type="submit" class="primary" aria-describedby="complete-hint">${escape(t("sandbox.onboarding.complete"))}</button>
<p id="complete-hint">${escape(t("sandbox.onboarding.completeHint"))}</p>
</form>
<form class="choice" method="post" action="${escape(path)}/abandon">
${hidden}
<button type="submit" class="secondary" aria-describedby="abandon-hint">${escape(t("sandbox.onboarding.abandon"))}</button>
<p id="abandon-hint">${escape(t("sandbox.onboarding.abandonHint"))}</p>
</form>
</div>`
        )
      )
    })

    /** Complete or abandon: the form's return addresses are checked again (they come from the client). */
    const outcome = (completed: boolean) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { accountId = "" } = yield* HttpRouter.params
        const form = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
        const field = (name: string) => Option.getOrElse(UrlParams.getFirst(form, name), () => "")
        const language = pageLanguage(request, field("lang"))
        const switchHref = withQuery(sandboxPaths.onboarding(accountId), { lang: language === "fr" ? "en" : "fr" })
        const target = completed ? field("return") : field("refresh")
        if (!sandbox.isOwnUrl(field("return")) || !sandbox.isOwnUrl(field("refresh")))
          return messagePage(language, "sandbox.badLink", 400, switchHref)
        const account = completed ? yield* sandbox.complete(accountId) : yield* sandbox.find(accountId)
        if (Option.isNone(account)) return messagePage(language, "sandbox.notFound", 404, switchHref)
        return HttpServerResponse.redirect(target, { status: 303 })
      })

    const dashboardPage = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { accountId = "" } = yield* HttpRouter.params
      const query = yield* HttpServerRequest.ParsedSearchParams
      const language = pageLanguage(request, typeof query.lang === "string" ? query.lang : undefined)
      const t = (key: MessageKey) => translate(language, key)
      const switchHref = withQuery(sandboxPaths.dashboard(accountId), { lang: language === "fr" ? "en" : "fr" })
      const found = yield* sandbox.find(accountId)
      if (Option.isNone(found)) return messagePage(language, "sandbox.notFound", 404, switchHref)
      const account = found.value
      const yesNo = (flag: boolean) => escape(t(flag ? "sandbox.yes" : "sandbox.no"))
      return htmlAnswer(
        page(
          language,
          t("sandbox.dashboard.title"),
          switchHref,
          `<p>${escape(t("sandbox.dashboard.intro"))}</p>
<dl>
<dt>${escape(t("sandbox.account"))}</dt><dd><code>${escape(account.accountId)}</code></dd>
<dt>${escape(t("sandbox.country"))}</dt><dd>${escape(account.country)}</dd>
<dt>${escape(t("sandbox.chargesEnabled"))}</dt><dd data-flag="chargesEnabled">${yesNo(account.chargesEnabled)}</dd>
<dt>${escape(t("sandbox.payoutsEnabled"))}</dt><dd data-flag="payoutsEnabled">${yesNo(account.payoutsEnabled)}</dd>
<dt>${escape(t("sandbox.detailsSubmitted"))}</dt><dd data-flag="detailsSubmitted">${yesNo(account.detailsSubmitted)}</dd>
</dl>
<p><a href="${escape(setupUrl)}">${escape(t("sandbox.back"))}</a></p>`
        )
      )
    })

    yield* router.get("/sandbox/connect/onboarding/:accountId", onboardingPage)
    yield* router.post("/sandbox/connect/onboarding/:accountId/complete", outcome(true))
    yield* router.post("/sandbox/connect/onboarding/:accountId/abandon", outcome(false))
    yield* router.get("/sandbox/connect/dashboard/:accountId", dashboardPage)
  })
