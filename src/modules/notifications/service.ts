import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../../platform/config"
import type { ValidationFailed } from "../../platform/errors"
import type { Language } from "../../platform/messages"
import { Transactional } from "../../platform/transaction"
import { actionMail, type ActionMailInput, type ContactInput, contactMail, validateContact } from "./domain"
import { ContactRepository, Mailer } from "./ports"

interface Recipient {
  readonly email: string
  readonly firstName: string
  readonly preferredLanguage: Language
}

/** Composes and sends the product's mails; stores contact messages. */
export class Notifications extends Context.Tag("notifications/Notifications")<
  Notifications,
  {
    readonly sendEmailVerification: (to: Recipient, token: string) => Effect.Effect<void>
    readonly sendPasswordReset: (to: Recipient, token: string) => Effect.Effect<void>
    /** The link that proves a new address (sent to that address; `to.email` is the new one). */
    readonly sendEmailChange: (to: Recipient, token: string) => Effect.Effect<void>
    /** Tells the old address that the account moved to another one (which it does not name). */
    readonly sendEmailChanged: (to: Recipient) => Effect.Effect<void>
    /**
     * Tells an account's owner that someone tried to register with their address (registration answers
     * the same whether or not an address has an account), with the way to a new password.
     */
    readonly sendRegistrationAttempt: (to: Recipient) => Effect.Effect<void>
    /** Tells the account that two-step login was turned on or off (with a way to reach support). */
    readonly sendTwoFactorChanged: (to: Recipient, enabled: boolean) => Effect.Effect<void>
    /** The link to a prepared data export. */
    readonly sendDataExport: (to: Recipient, token: string) => Effect.Effect<void>
    readonly submitContactMessage: (input: ContactInput, userId: string | null) => Effect.Effect<void, ValidationFailed>
  }
>() {}

export const NotificationsLive = Layer.effect(
  Notifications,
  Effect.gen(function* () {
    const mailer = yield* Mailer
    const contacts = yield* ContactRepository
    const tx = yield* Transactional
    const config = yield* AppConfig
    const link = (path: string) => `${config.publicUrl}${path}`
    // Every mail is signed with the brand's name.
    const sendActionMail = (input: Omit<ActionMailInput, "siteName">) => mailer.send(actionMail({ ...input, siteName: config.siteName }))
    return {
      sendEmailVerification: (to, token) =>
        sendActionMail({
          kind: "email-verification",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link(`/verify-email/${token}`),
          keys: {
            subject: "mail.verify.subject",
            greeting: "mail.verify.greeting",
            body: "mail.verify.body",
            action: "mail.verify.action"
          }
        }),
      sendPasswordReset: (to, token) =>
        sendActionMail({
          kind: "password-reset",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link(`/reset-password/${token}`),
          keys: { subject: "mail.reset.subject", greeting: "mail.reset.greeting", body: "mail.reset.body", action: "mail.reset.action" }
        }),
      sendEmailChange: (to, token) =>
        sendActionMail({
          kind: "email-change",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link(`/confirm-email/${token}`),
          keys: {
            subject: "mail.emailChange.subject",
            greeting: "mail.emailChange.greeting",
            body: "mail.emailChange.body",
            action: "mail.emailChange.action"
          }
        }),
      sendEmailChanged: (to) =>
        sendActionMail({
          kind: "email-change",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link("/contact"),
          keys: {
            subject: "mail.emailChanged.subject",
            greeting: "mail.emailChanged.greeting",
            body: "mail.emailChanged.body",
            action: "mail.emailChanged.action"
          }
        }),
      sendRegistrationAttempt: (to) =>
        sendActionMail({
          kind: "account-security",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link("/forgot-password"),
          keys: {
            subject: "mail.registrationAttempt.subject",
            greeting: "mail.greeting",
            body: "mail.registrationAttempt.body",
            action: "mail.registrationAttempt.action"
          }
        }),
      sendTwoFactorChanged: (to, enabled) =>
        sendActionMail({
          kind: "account-security",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          link: link("/settings"),
          keys: enabled
            ? {
                subject: "mail.twoFactorOn.subject",
                greeting: "mail.greeting",
                body: "mail.twoFactorOn.body",
                action: "mail.twoFactor.action"
              }
            : {
                subject: "mail.twoFactorOff.subject",
                greeting: "mail.greeting",
                body: "mail.twoFactorOff.body",
                action: "mail.twoFactor.action"
              }
        }),
      sendDataExport: (to, token) =>
        sendActionMail({
          kind: "data-export",
          to: to.email,
          language: to.preferredLanguage,
          firstName: to.firstName,
          // The page with the download button: a mail scanner's GET must not spend the single-use link.
          link: link(`/account/export/${token}`),
          keys: {
            subject: "mail.export.subject",
            greeting: "mail.export.greeting",
            body: "mail.export.body",
            action: "mail.export.action"
          }
        }),
      submitContactMessage: (input, userId) =>
        Effect.flatMap(validateContact(input), (message) =>
          tx.run(Effect.zipRight(contacts.insert({ ...message, userId }), mailer.send(contactMail(config.supportEmail, message))))
        )
    }
  })
)
