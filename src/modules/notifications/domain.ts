import { Either } from "effect"
import { type FieldIssue, invalid, issue, type ValidationFailed } from "../../platform/errors"
import { type Language, type MessageKey, translate } from "../../platform/messages"
import { formatWithZone } from "../../platform/time-zones"
import type { OutgoingMail, RawMail } from "./ports"
import type { DigestItem } from "./ports"
import type { MailKind } from "./preferences"
import { ContactSubjects, type ContactSubject } from "./rules"

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

export interface MailRecipient {
  readonly email: string
  readonly firstName: string
  readonly preferredLanguage: Language
}

/** The line every product mail is signed with: the brand's name (SITE_NAME) and its city. */
const signature = (language: Language, siteName: string) => translate(language, "mail.footer", { siteName })

/**
 * The one mail layout: a greeting, paragraphs and one call to action, in plain text and HTML,
 * signed with the brand's name. `kind` tells the notifications module whether the recipient's
 * preferences may hold it back.
 */
export const composeMail = (
  kind: MailKind,
  to: MailRecipient,
  subject: string,
  paragraphs: ReadonlyArray<string>,
  action: { readonly label: string; readonly link: string },
  siteName: string,
  greetingKey: MessageKey = "mail.greeting"
): OutgoingMail => {
  const t = (key: MessageKey) => translate(to.preferredLanguage, key, { firstName: to.firstName })
  const footer = signature(to.preferredLanguage, siteName)
  return {
    kind,
    digest: { body: paragraphs.join("\n\n"), link: action.link },
    to: to.email,
    subject,
    text: `${t(greetingKey)}\n\n${paragraphs.join("\n\n")}\n\n${action.label}: ${action.link}\n\n-- \n${footer}\n`,
    html: `<!doctype html><html lang="${to.preferredLanguage}"><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(t(greetingKey))}</p>${paragraphs.map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p)}</p>`).join("")}
<p><a href="${escapeHtml(action.link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(action.link)}</p>
<hr><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></body></html>`
  }
}

export interface ActionMailInput {
  readonly kind: MailKind
  readonly to: string
  readonly language: Language
  readonly firstName: string
  readonly link: string
  readonly keys: { subject: MessageKey; greeting: MessageKey; body: MessageKey; action: MessageKey }
  readonly siteName: string
}

/** A mail with one call to action whose texts are message keys, in the recipient's language. */
export const actionMail = (input: ActionMailInput): OutgoingMail => {
  const t = (key: MessageKey) => translate(input.language, key, { firstName: input.firstName })
  const { subject, greeting, body, action } = input.keys
  return composeMail(
    input.kind,
    { email: input.to, firstName: input.firstName, preferredLanguage: input.language },
    t(subject),
    [t(body)],
    { label: t(action), link: input.link },
    input.siteName,
    greeting
  )
}

export { ContactSubjects, type ContactSubject } from "./rules"

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
const LIMITS = { name: 100, email: 254, subject: 40, message: 5000 } as const

export interface ContactInput {
  readonly name?: string | undefined
  readonly email?: string | undefined
  readonly subject?: string | undefined
  readonly message?: string | undefined
}

export const validateContact = (
  input: ContactInput
): Either.Either<{ name: string; email: string; subject: ContactSubject; message: string }, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const values = {
    name: (input.name ?? "").trim(),
    email: (input.email ?? "").trim().toLowerCase(),
    subject: (input.subject ?? "").trim(),
    message: (input.message ?? "").trim()
  }
  for (const field of ["name", "email", "subject", "message"] as const) {
    if (values[field] === "") issues.push(issue(field, "validation.required"))
    else if (values[field].length > LIMITS[field]) issues.push(issue(field, "validation.tooLong"))
  }
  if (values.email !== "" && !EMAIL.test(values.email)) issues.push(issue("email", "validation.email"))
  if (values.subject !== "" && !(ContactSubjects as ReadonlyArray<string>).includes(values.subject)) {
    issues.push(issue("subject", "validation.contactSubject"))
  }
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right({ ...values, subject: values.subject as ContactSubject })
}

/** The contact form's message to the support mailbox, in the support team's language (French by default). */
export const contactMail = (
  supportEmail: string,
  message: { name: string; email: string; subject: ContactSubject; message: string },
  language: Language = "fr"
): OutgoingMail => {
  const topic = translate(language, `contact.subject.${message.subject}`)
  const subject = translate(language, "mail.contact.subject", { subject: topic })
  const text = `${translate(language, "mail.contact.from")}: ${message.name} <${message.email}>\n${translate(language, "mail.contact.topic")}: ${topic}\n\n${message.message}\n`
  return { kind: "contact", to: supportEmail, subject, text, html: `<pre style="white-space:pre-wrap">${escapeHtml(text)}</pre>` }
}

// ---- Preferences in mails ----------------------------------------------------------------------

/** The one-click unsubscribe line every non-essential mail ends with. */
export const withUnsubscribeFooter = (mail: RawMail, language: Language, link: string): RawMail => {
  const label = translate(language, "mail.unsubscribe")
  const footer = `<p style="font-size:12px;color:#555"><a href="${escapeHtml(link)}" style="color:#555">${escapeHtml(label)}</a></p>`
  const closing = mail.html.lastIndexOf("</body>")
  return {
    ...mail,
    text: `${mail.text}${mail.text.endsWith("\n") ? "" : "\n"}${label}: ${link}\n`,
    html: closing < 0 ? `${mail.html}${footer}` : `${mail.html.slice(0, closing)}${footer}${mail.html.slice(closing)}`
  }
}

/** "29 nov. 2026, 15:00, heure de Paris": when an item came, in the recipient's zone (their preferences' zone), named. */
const digestDate = (language: Language, date: Date, timeZone: string) =>
  formatWithZone(language, date, timeZone, { dateStyle: "medium", timeStyle: "short" })

/** One mail listing the pending items, oldest first, in the recipient's language and time zone. */
export const digestMail = (
  to: MailRecipient,
  items: ReadonlyArray<DigestItem>,
  links: { readonly home: string; readonly settings: string },
  timeZone: string,
  siteName: string
): RawMail => {
  const language = to.preferredLanguage
  const t = (key: MessageKey, params?: Record<string, string>) => translate(language, key, params)
  const entries = items.map((item) => ({ when: digestDate(language, item.createdAt, timeZone), ...item }))
  const subject = t("mail.digest.subject", { count: String(items.length) })
  const footer = signature(language, siteName)
  const text = [
    t("mail.greeting", { firstName: to.firstName }),
    t("mail.digest.intro"),
    ...entries.map((e) => `* ${e.subject} (${e.when})\n${e.body}\n${e.link}`),
    `${t("mail.digest.settings")}: ${links.settings}`,
    `-- \n${footer}`
  ].join("\n\n")
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(t("mail.greeting", { firstName: to.firstName }))}</p><p>${escapeHtml(t("mail.digest.intro"))}</p><ul>${entries
    .map(
      (e) =>
        `<li style="margin-bottom:12px"><strong>${escapeHtml(e.subject)}</strong> <span style="color:#555">(${escapeHtml(e.when)})</span><br><span style="white-space:pre-wrap">${escapeHtml(e.body)}</span><br><a href="${escapeHtml(e.link)}">${escapeHtml(e.link)}</a></li>`
    )
    .join("")}</ul>
<p><a href="${escapeHtml(links.settings)}">${escapeHtml(t("mail.digest.settings"))}</a></p>
<hr><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></body></html>`
  return { to: to.email, subject, text: `${text}\n`, html }
}
