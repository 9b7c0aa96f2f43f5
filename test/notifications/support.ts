/** A reader's notification preferences before they change any. */
export const DEFAULT_PREFERENCES = {
  emailNotifications: true,
  emailFrequency: "instant",
  quietHoursEnabled: false,
  quietHoursStart: "22:00",
  quietHoursEnd: "08:00",
  timeZone: "Europe/Paris"
} as const
