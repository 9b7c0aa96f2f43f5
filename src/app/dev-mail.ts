import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { isLocalRequest } from "../platform/http/client-address"
import { Outbox } from "../modules/notifications"

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
const linkify = (text: string) => escape(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')

/**
 * A page for requests from this machine only: anyone else (another host, or anything relayed by a
 * proxy) gets the plain 404 of an unknown page, so its existence is not revealed either.
 */
export const localOnly = <E, R>(page: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    isLocalRequest(request)
      ? Effect.map(page, (response) => HttpServerResponse.setHeader(response, "cache-control", "no-store"))
      : Effect.succeed(HttpServerResponse.text("Not Found", { status: 404 }))
  )

/**
 * /dev/mail: the local outbox of the embedded mode, so a newcomer can follow verification links.
 * It shows password-reset links, so it exists only with config.devMail and answers only localOnly.
 */
export const devMailPage = Effect.gen(function* () {
  const outbox = yield* Outbox
  const mails = yield* outbox.latest(50)
  const items = mails
    .map(
      (m) => `<article class="mail"><header><strong>${escape(m.subject)}</strong><br>
<span>To: <span class="to">${escape(m.to)}</span></span> · <time>${m.createdAt.toISOString()}</time></header>
<pre>${linkify(m.text)}</pre>${
        (m.attachments ?? []).length > 0
          ? `<p>Attachments: ${(m.attachments ?? []).map((a) => `<span class="attachment">${escape(a.filename)}</span>`).join(", ")}</p>`
          : ""
      }</article>`
    )
    .join("\n")
  return HttpServerResponse.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#111}
.mail{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}a{color:#1d4ed8}</style></head>
<body><h1>Local outbox</h1><p>Mails sent by the application while no SMTP server is configured (newest first).</p>
${items || "<p>No mail yet.</p>"}</body></html>`)
})
