import { type Language, type MessageKey, translate } from "../../platform/messages"
import type { OutgoingMail } from "../notifications"
import type { Resubmission } from "./domain"

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

export interface MailRecipient {
  readonly email: string
  readonly firstName: string
  readonly preferredLanguage: Language
}

const dateIn = (language: Language, date: Date) =>
  new Intl.DateTimeFormat(language === "fr" ? "fr-FR" : "en-CA", { dateStyle: "long", timeZone: "UTC" }).format(date)

/** A mail of paragraphs and one call to action, in plain text and HTML (same layout as notifications' mails). */
const compose = (to: MailRecipient, subject: string, paragraphs: ReadonlyArray<string>, action: { label: string; link: string }): OutgoingMail => {
  const t = (key: MessageKey) => translate(to.preferredLanguage, key, { firstName: to.firstName })
  return {
    to: to.email,
    subject,
    text: `${t("mail.greeting")}\n\n${paragraphs.join("\n\n")}\n\n${action.label}: ${action.link}\n\n-- \n${t("mail.footer")}\n`,
    html: `<!doctype html><html lang="${to.preferredLanguage}"><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(t("mail.greeting"))}</p>${paragraphs.map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p)}</p>`).join("")}
<p><a href="${escapeHtml(action.link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(action.link)}</p>
<hr><p style="font-size:12px;color:#555">${escapeHtml(t("mail.footer"))}</p></body></html>`
  }
}

/** To the applicant when an admin approves: next step, activate payments. */
export const approvalMail = (to: MailRecipient, publicUrl: string): OutgoingMail => {
  const language = to.preferredLanguage
  return compose(to, translate(language, "mail.applicationApproved.subject"), [translate(language, "mail.applicationApproved.body")], {
    label: translate(language, "mail.applicationApproved.action"),
    link: `${publicUrl}/provider/payments/setup`
  })
}

/** To the applicant when an admin rejects: the reason, and when (or whether) a resubmission is possible. */
export const rejectionMail = (
  to: MailRecipient,
  input: { readonly reason: string; readonly resubmission: Resubmission; readonly attemptsLeft: number },
  publicUrl: string
): OutgoingMail => {
  const language = to.preferredLanguage
  const next =
    input.resubmission.state === "FINALLY_REFUSED"
      ? translate(language, "mail.applicationRejected.final")
      : input.resubmission.state === "COOLDOWN"
        ? translate(language, "mail.applicationRejected.resubmitOn", {
            date: dateIn(language, input.resubmission.until),
            attempts: String(input.attemptsLeft)
          })
        : translate(language, "mail.applicationRejected.resubmitNow", { attempts: String(input.attemptsLeft) })
  return compose(
    to,
    translate(language, "mail.applicationRejected.subject"),
    [translate(language, "mail.applicationRejected.body"), `${translate(language, "mail.applicationRejected.reason")} ${input.reason}`, next],
    { label: translate(language, "mail.applicationRejected.action"), link: `${publicUrl}/become-provider` }
  )
}
