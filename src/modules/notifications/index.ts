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
export { NotificationJobsLive } from "./jobs"
export { ContactApi, NotificationPreferencesApi, NotificationUnsubscribeApi } from "./contract"
export { ContactHttpLive, NotificationPreferencesHttpLive, NotificationUnsubscribeHttpLive, unsubscribeLinkPage } from "./http"
export {
  ContactRepositoryLive,
  DigestRepositoryLive,
  OutboxReaderLive,
  OutboxTransportLive,
  PreferenceRepositoryLive
} from "./adapters/postgres"
export { MAIL_QUEUE, QueuedTransportLive, SmtpDeliveryLive } from "./adapters/smtp"
export { HmacUnsubscribeTokensLive } from "./adapters/tokens"
export { InMemoryNotificationsAdapters, InMemoryPreferenceAdapters } from "./adapters/memory"
