export { composeMail, ContactSubjects, digestMail, type MailRecipient, withUnsubscribeFooter } from "./domain"
export {
  AccountDirectory,
  DigestRepository,
  Mailer,
  MailTransport,
  Outbox,
  type OutgoingMail,
  PreferenceRepository,
  type RawMail,
  type StoredMail,
  UnsubscribeTokens
} from "./ports"
export {
  decideDelivery,
  defaultPreferences,
  EmailFrequencies,
  type EmailFrequency,
  isEssential,
  type MailKind,
  MailKinds,
  type NotificationPreferences
} from "./preferences"
export { Notifications, NotificationsLive } from "./service"
export { type DigestRun, NotificationSettings, NotificationSettingsLive } from "./settings"
export { DEFERRED_MAIL_QUEUE, DIGEST_QUEUE, PreferenceAwareMailerLive, unsubscribeLinkOf } from "./delivery"
export { ContactApi, NotificationPreferencesApi, NotificationUnsubscribeApi } from "./contract"
