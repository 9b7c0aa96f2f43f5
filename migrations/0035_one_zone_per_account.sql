-- One zone per account (issue 23, item 1): the account's zone (users.time_zone) is the only one. The
-- availability plan and the notification quiet hours kept zones of their own, never reconciled, so a
-- provider's slots could say Toronto while their bookings, mails and receipts said Paris.
--
-- Reconciling: a provider's plan zone wins over the account's, set or not, because it is the zone their
-- bookable times were offered in (keeping it moves no slot); then an account without a zone takes its
-- quiet hours' zone when one other than the old default was chosen. Accounts still without one keep
-- NULL: the browser's zone is adopted at the next sign-in, the platform's default is shown meanwhile.
UPDATE users u SET time_zone = p.time_zone, updated_at = now()
  FROM availability_plans p
  WHERE p.provider_id = u.id AND u.time_zone IS DISTINCT FROM p.time_zone;

UPDATE users u SET time_zone = n.time_zone, updated_at = now()
  FROM notification_preferences n
  WHERE n.user_id = u.id AND u.time_zone IS NULL AND n.time_zone <> 'Europe/Paris';

ALTER TABLE availability_plans DROP COLUMN time_zone;
ALTER TABLE notification_preferences DROP COLUMN time_zone;
