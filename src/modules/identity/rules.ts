// Identity's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

export const Roles = ["CLIENT", "PROVIDER", "ADMIN"] as const
export type Role = (typeof Roles)[number]

export const ProfileVisibilities = ["PUBLIC", "FRIENDS_ONLY", "PRIVATE"] as const
export type ProfileVisibility = (typeof ProfileVisibilities)[number]
