export {
  type Actor,
  InsufficientRights,
  isStrongPassword,
  isValidEmail,
  isValidPhone,
  requireRole,
  Role,
  type User
} from "./domain"
export { UserView, AuthApi, SessionView } from "./contract"
export { toUserView } from "./views"
export { Identity, IdentityLive } from "./service"
export { type AccountEvent, AccountEventFeed, AccountEvents, InProcessAccountEvents } from "./account-events"
export {
  type AccountChange,
  type AccountChangeInput,
  CannotDeactivateSelf,
  CannotDemoteSelf,
  decideAccountChange,
  parseRole,
  UserNotFound
} from "./account-admin"
export { UserRepository } from "./ports"
export {
  ageOn,
  badgesOf,
  emptyProfile,
  noStatistics,
  type Profile,
  type ProfileFile,
  type ProfileStatistics,
  type ProfileVisibility,
  ProfileVisibilities,
  profileAccess,
  validateProfilePatch,
  type Viewer
} from "./profile"
export {
  FavoriteRepository,
  PayoutAccountLookup,
  type PayoutAccountSummary,
  ProfileRelations,
  ProfileRepository,
  ProfileStatisticsSource
} from "./profile-ports"
export { Profiles, ProfilesLive, type OwnProfile, type VisibleProfile } from "./profile-service"
export { OwnProfileView, PublicProfileView, UploadsApi, UsersApi } from "./profile-contract"
export { AccountDirectoryFromUsers } from "./account-directory"
