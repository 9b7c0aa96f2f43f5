import { Option } from "effect"
import { type Language, type MessageKey, translate } from "../../../platform/messages"
import type { User } from "../domain"
import type { BadgeDefinition, Profile, ProfileFile, ProfileStatistics } from "./domain"
import type { AvatarView, BadgeView, OwnProfileView, PaymentsStateView, PublicProfileView } from "./contract"
import type { PayoutAccountSummary } from "./ports"
import type { OwnProfile, PhotoSource, VisibleProfile } from "./service"

// Profile records turned into the contract's views (profile/contract.ts), by the handlers.

export const toBadgeView = (badge: BadgeDefinition, language: Language): typeof BadgeView.Type => ({
  badge: {
    id: badge.id,
    name: translate(language, `badge.${badge.id}.name` as MessageKey),
    description: translate(language, `badge.${badge.id}.description` as MessageKey),
    icon: badge.icon,
    color: badge.color
  }
})

/** Address of a profile photo file (versioned: the URL changes with the photo). */
export const photoUrl = (userId: string, source: PhotoSource, file: ProfileFile | null) =>
  file === null ? null : `/api/users/${userId}/profile-photo/file?source=${source}&v=${file.updatedAt.getTime()}`

const photoUrls = (userId: string, profile: Profile) => {
  const avatarUrl = photoUrl(userId, "avatar", profile.avatar)
  const identityPhotoUrl = photoUrl(userId, "identity", profile.identityPhoto)
  return { avatarUrl, identityPhotoUrl, profilePhotoUrl: avatarUrl ?? identityPhotoUrl }
}

const common = (
  user: User,
  profile: Profile,
  statistics: ProfileStatistics,
  badges: ReadonlyArray<BadgeDefinition>,
  language: Language
) => ({
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  isEmailVerified: user.isEmailVerified,
  identityVerified: user.role === "PROVIDER" && profile.identityVerifiedAt !== null,
  ...photoUrls(user.id, profile),
  bio: profile.bio,
  description: profile.description,
  specialities: profile.specialities,
  experienceYears: profile.experienceYears,
  languages: profile.languages,
  certifications: profile.certifications,
  socialLinks: profile.socialLinks as Record<string, string>,
  availability: profile.availability,
  profileVisibility: profile.profileVisibility,
  location: profile.location,
  city: profile.city,
  country: profile.country,
  hourlyRate: profile.hourlyRate,
  currency: profile.currency,
  userCurrency: { code: profile.currency },
  servicesCount: statistics.servicesCount,
  averageRating: statistics.averageRating,
  totalReviews: statistics.totalReviews,
  totalBookings: statistics.totalBookings,
  completedBookings: statistics.completedBookings,
  completionRate: statistics.completionRate,
  responseTime: statistics.responseTime,
  cancellationRate: statistics.cancellationRate,
  badges: badges.map((b) => toBadgeView(b, language)),
  createdAt: user.createdAt
})

const paymentsState = (payout: Option.Option<PayoutAccountSummary>): typeof PaymentsStateView.Type => ({
  hasAccount: Option.isSome(payout),
  accountId: Option.getOrNull(Option.map(payout, (p) => p.accountId)),
  chargesEnabled: Option.exists(payout, (p) => p.chargesEnabled),
  payoutsEnabled: Option.exists(payout, (p) => p.payoutsEnabled),
  detailsSubmitted: Option.exists(payout, (p) => p.detailsSubmitted),
  setupPath: "/provider/payments/setup"
})

export const toOwnProfileView = (own: OwnProfile, language: Language): typeof OwnProfileView.Type => ({
  ...common(own.user, own.profile, own.statistics, own.badges, language),
  email: own.user.email,
  phoneNumber: own.user.phoneNumber,
  preferredLanguage: own.user.preferredLanguage,
  timeZone: own.user.timeZone,
  active: own.user.isActive,
  address: own.profile.address,
  postalCode: own.profile.postalCode,
  dateOfBirth: own.profile.dateOfBirth,
  stripeAccountId: own.payout === undefined ? null : Option.getOrNull(Option.map(own.payout, (p) => p.accountId)),
  payments: own.payout === undefined ? null : paymentsState(own.payout)
})

export const toPublicProfileView = (visible: VisibleProfile, language: Language): typeof PublicProfileView.Type => ({
  ...common(visible.user, visible.profile, visible.statistics, visible.badges, language),
  isFavorite: visible.isFavorite,
  isOwner: visible.access === "owner"
})

export const toAvatarView = (userId: string, file: ProfileFile | null): typeof AvatarView.Type => ({
  avatarUrl: photoUrl(userId, "avatar", file),
  hasAvatar: file !== null,
  contentType: file?.contentType ?? null,
  size: file?.size ?? null,
  updatedAt: file?.updatedAt ?? null
})
