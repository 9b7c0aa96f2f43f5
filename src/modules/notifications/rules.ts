// Notifications' literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

export const ContactSubjects = ["general", "technical", "account", "payment", "privacy", "bug", "feature", "other"] as const
export type ContactSubject = (typeof ContactSubjects)[number]

export const EmailFrequencies = ["instant", "daily", "weekly", "never"] as const
export type EmailFrequency = (typeof EmailFrequencies)[number]
