export { composeMail, type MailRecipient } from "./domain"
export {
  AccountDirectory,
  Mailer,
  MailTransport,
  Outbox,
  type OutgoingMail
} from "./ports"
export { Notifications, NotificationsLive } from "./service"
export { type DigestRun, NotificationSettings, NotificationSettingsLive } from "./settings"
export { DEFERRED_MAIL_QUEUE, DIGEST_QUEUE, PreferenceAwareMailerLive } from "./delivery"
export { ContactApi, NotificationPreferencesApi, NotificationUnsubscribeApi } from "./contract"
